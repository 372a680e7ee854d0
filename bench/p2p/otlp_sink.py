"""An OTLP/HTTP endpoint that takes every export and keeps nothing: where ``python -m
bench.p2p --trace`` sends the spans of every process, so that what is measured is what
tracing costs the processes that trace (a collector elsewhere does the rest)."""

from __future__ import annotations

from typing import Any

EMPTY_RESPONSE = b""  # an ExportTraceServiceResponse with nothing in it, serialized


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/x-protobuf")],
        }
    )
    await send({"type": "http.response.body", "body": EMPTY_RESPONSE})
