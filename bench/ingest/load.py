"""A load process: POSTs messages over keep-alive HTTP/1.1 connections for a while.

    python -m bench.ingest.load PORT PATH TOKEN SENDER CONNECTIONS SECONDS [KIND]

KIND ``message`` (the default) posts one plain message a request; ``tasks`` posts a
record batch (``…/messages:batch``) of a partner's reports of ``TASKS_PER_BATCH`` new
tasks, each ``accepted``, ``working``, ``awaiting-completion`` (the partner's first report creates
the task): ``REPORTS`` messages a request.

Plain asyncio streams, no client library: the point is to load the server, not the client.
Every message has a fresh id (so each POST is a new durable message) and must answer 201
(200 for the bare endpoint, which has no store). Prints one JSON line: posts, seconds, and
each post's latency in ms.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import Callable

import orjson

from bench.harness import message_body

TEXT = "x" * 200
TASKS_PER_BATCH = 10
STATES = ("accepted", "working", "awaiting-completion")
REPORTS = TASKS_PER_BATCH * len(STATES)


def body(sender: str) -> bytes:
    return message_body(sender, TEXT)


def task_batch(sender: str) -> bytes:
    """A partner's reports of new tasks, in the order it sent them."""
    items = []
    for _ in range(TASKS_PER_BATCH):
        task_id = f"task-{uuid.uuid4().hex}"
        for n, state in enumerate(STATES):
            at = f"2026-12-01T00:00:00.{n:06d}Z"
            items.append(
                {
                    "type": "task-result",
                    "id": f"m-{uuid.uuid4().hex}",
                    "sentAt": at,
                    "senderRole": "partner",
                    "senderId": sender,
                    "taskId": task_id,
                    "status": {"state": state, "stateChangedAt": at},
                }
            )
    return orjson.dumps({"items": items})


async def connection(
    port: int,
    path: str,
    token: str,
    sender: str,
    deadline: float,
    latencies: list[float],
    make: Callable[[str], bytes] = body,
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        + (f"Authorization: Bearer {token}\r\n" if token != "-" else "")  # noqa: S105 ("-": no token)
    ).encode()
    try:
        while time.perf_counter() < deadline:
            payload = make(sender)
            started = time.perf_counter()
            writer.write(head + b"Content-Length: %d\r\n\r\n" % len(payload) + payload)
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            answer = await reader.readexactly(length)
            if status_line.split()[1] not in (b"200", b"201"):
                raise SystemExit(f"POST refused: {status_line!r} {answer[:300]!r}")
            if make is task_batch and (
                refused := [i for i in orjson.loads(answer)["items"] if i["status"] != 201]
            ):
                raise SystemExit(f"a record refused: {refused[0]!r}")
            latencies.append((time.perf_counter() - started) * 1000)
    finally:
        writer.close()


async def main(argv: list[str]) -> None:
    port, path, token, sender = int(argv[0]), argv[1], argv[2], argv[3]
    connections, seconds = int(argv[4]), float(argv[5])
    kind = argv[6] if len(argv) > 6 else "message"
    make, per_post = (task_batch, REPORTS) if kind == "tasks" else (body, 1)
    latencies: list[float] = []
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(
        *(
            connection(port, path, token, sender, deadline, latencies, make)
            for _ in range(connections)
        )
    )
    elapsed = time.perf_counter() - started
    report = {
        "posts": len(latencies),
        "messages": len(latencies) * per_post,
        "seconds": elapsed,
        "latencies_ms": latencies,
    }
    sys.stdout.buffer.write(orjson.dumps(report) + b"\n")


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(sys.argv[1:]))
