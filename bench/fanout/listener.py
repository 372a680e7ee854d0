"""A listener process: holds many SSE streams and times every delivery it gets.

Reads one JSON line on stdin: ``{"streams": [{"port", "path", "token"}...]}``; opens every
stream (plain HTTP/1.1 over asyncio, no client library in the way), prints ``ready`` once
all have answered 200, then obeys commands, one per line:

- ``expect <phase> <count> <timeout>``: wait until every stream has received ``count``
  frames marked with ``phase`` (or the timeout), then print one JSON line: deliveries,
  the last receive time, and each delivery's publish→receive latency in ms.
- ``quit``.

A frame is marked by its publisher with ``@<phase>:<unix time>`` somewhere in its data.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from typing import Any

import orjson

MARK = re.compile(rb"@(\d+):(\d+\.\d+)")


def frames_end(data: bytes) -> int:
    """Where the last whole frame in ``data`` ends (frames end in a blank line, LF or CRLF)."""
    lf, crlf = data.rfind(b"\n\n"), data.rfind(b"\r\n\r\n")
    return max(lf + 2 if lf >= 0 else 0, crlf + 4 if crlf >= 0 else 0)


class Stream(asyncio.Protocol):
    def __init__(self, counts: dict[int, list[float]], ready: asyncio.Event) -> None:
        self.counts = counts  # phase -> latencies of this stream's deliveries
        self.last: dict[int, float] = {}  # phase -> when its latest frame arrived
        self.ready = ready
        self.opened = False
        self.tail = b""
        self.closed = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        now = time.time()
        data = self.tail + data
        if not self.opened:
            head, sep, data = data.partition(b"\r\n\r\n")
            if not sep:
                self.tail = head
                return
            if not head.startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"stream refused: {head[:200]!r}")
            self.opened = True
            self.ready.set()
        cut = frames_end(data)
        self.tail = data[cut:]
        for match in MARK.finditer(data, 0, cut):
            phase = int(match.group(1))
            self.counts.setdefault(phase, []).append((now - float(match.group(2))) * 1000)
            self.last[phase] = now

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


def _body(spec: dict[str, Any]) -> bytes | None:
    body = spec.get("body")
    return None if body is None else orjson.dumps(body)


async def open_stream(port: int, path: str, token: str | None, body: bytes | None = None) -> Stream:
    loop = asyncio.get_running_loop()
    counts: dict[int, list[float]] = {}
    ready = asyncio.Event()
    transport, stream = await loop.create_connection(
        lambda: Stream(counts, ready), "127.0.0.1", port
    )
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    if body is None:
        transport.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Accept: text/event-stream\r\n{auth}\r\n".encode()
        )
    else:  # a JSON-RPC request that answers with a stream (an A2A subscribe)
        transport.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Accept: text/event-stream\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{auth}\r\n".encode()
            + body
        )
    await asyncio.wait_for(ready.wait(), 60)
    return stream


async def expect(streams: list[Stream], phase: int, count: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(len(s.counts.get(phase, ())) >= count for s in streams):
            break
        await asyncio.sleep(0.01)
    latencies = [ms for s in streams for ms in s.counts.get(phase, ())]
    return {
        "deliveries": len(latencies),
        "short_streams": sum(len(s.counts.get(phase, ())) < count for s in streams),
        "last_receive": max((s.last.get(phase, 0.0) for s in streams), default=0.0),
        "latencies_ms": [round(ms, 3) for ms in latencies],
    }


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    plan = orjson.loads(await reader.readline())
    streams: list[Stream] = []
    specs = plan["streams"]
    for start in range(0, len(specs), 25):  # a few at a time: a connect storm is not measured
        streams += await asyncio.gather(
            *(
                open_stream(s["port"], s["path"], s.get("token"), _body(s))
                for s in specs[start : start + 25]
            )
        )
    print("ready", flush=True)
    while line := (await reader.readline()).decode().split():
        if line[0] == "quit":
            break
        phase, count, timeout = int(line[1]), int(line[2]), float(line[3])
        result = await expect(streams, phase, count, timeout)
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main())
