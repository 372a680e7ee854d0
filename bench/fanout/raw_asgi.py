"""Baseline: the stack's limit. A raw ASGI app writing pre-encoded frames, nothing else.

``GET /stream`` subscribes; ``POST /publish`` encodes its body as one SSE frame, once, and
every stream writes that same ``bytes`` object as it comes off its queue.
"""

from __future__ import annotations

import asyncio
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]

queues: set[asyncio.Queue[bytes]] = set()
HEADERS = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]


async def app(scope: Scope, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["path"] == "/stream":
        await stream(send)
    elif scope["path"] == "/publish":
        await publish(receive, send)
    else:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def stream(send: Any) -> None:
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    queues.add(queue)
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        while True:
            frame = await queue.get()
            await send({"type": "http.response.body", "body": frame, "more_body": True})
    finally:
        queues.discard(queue)


async def publish(receive: Any, send: Any) -> None:
    body = b""
    while True:
        message: Message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    frame = b"data: " + body + b"\n\n"
    for queue in queues:
        queue.put_nowait(frame)
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})
