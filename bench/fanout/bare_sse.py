"""Baseline: a bare sse-starlette broadcaster. In-memory queues, no store, no auth.

``GET /stream`` subscribes; ``POST /publish`` puts its body on every subscriber's queue, and
each stream yields it as ``{"data": ...}``, the way sse-starlette's docs show.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request, Response
from sse_starlette import EventSourceResponse

app = FastAPI()
queues: set[asyncio.Queue[str]] = set()


@app.get("/stream")
async def stream() -> EventSourceResponse:
    queue: asyncio.Queue[str] = asyncio.Queue()
    queues.add(queue)

    async def events() -> AsyncIterator[dict[str, str]]:
        try:
            while True:
                yield {"data": await queue.get()}
        finally:
            queues.discard(queue)

    return EventSourceResponse(events())


@app.post("/publish", status_code=204)
async def publish(request: Request) -> Response:
    data = (await request.body()).decode()
    for queue in queues:
        queue.put_nowait(data)
    return Response(status_code=204)
