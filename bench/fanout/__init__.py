"""Group fan-out over SSE: the hub beside a bare sse-starlette broadcaster and raw ASGI."""
