"""A pipelined request whose body stalls behind a streaming response: the refusal never
writes its 408 into the middle of that response (``GuardedHttpProtocol._refuse``). A real
uvicorn on loopback with the hub's protocol, short deadlines."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

from app.http_protocol import HubHttpProtocol


class Quick(HubHttpProtocol):
    header_timeout_seconds = 0.5
    body_timeout_seconds = 0.5


async def _stream(request: Request) -> StreamingResponse:
    async def events() -> AsyncIterator[bytes]:
        for i in range(8):  # 3.2 s: well past the refusal, on a loaded machine too
            yield f"event {i}\n".encode()
            await asyncio.sleep(0.4)

    return StreamingResponse(events())


async def _echo(request: Request) -> PlainTextResponse:
    return PlainTextResponse(b"got " + await request.body())


APP = Starlette(routes=[Route("/s", _stream), Route("/echo", _echo, methods=["POST"])])


async def test_a_stalled_pipelined_body_never_writes_into_the_response_before_it() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(APP, http=Quick, log_level="critical", lifespan="off")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.05)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(  # a streaming GET, and behind it a POST with 2 of its 3 body bytes
            b"GET /s HTTP/1.1\r\nHost: x\r\n\r\n"
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nab"
        )
        await writer.drain()
        received = b""
        while chunk := await asyncio.wait_for(reader.read(65536), 10):
            received += chunk
        writer.close()
        assert received.startswith(b"HTTP/1.1 200 OK")
        assert b"408" not in received  # (it used to land between two events of the stream)
        assert b"event 0" in received
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)
