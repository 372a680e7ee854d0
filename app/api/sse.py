"""Serving a numbered event stream over SSE (sse-starlette, with frames we encode ourselves)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette import EventSourceResponse
from sse_starlette.sse import SendTimeoutError
from starlette.types import Message, Receive, Scope, Send

from agenthub.protocol.tokens import AccessTokenClaims
from app.broker import Broker, Delivery
from app.config import Settings
from app.errors import BadRequest
from app.metrics import HubMetrics
from app.services.presence import Presence
from app.services.streams import StreamPlan, event_stream

StoredBacklog = Callable[[AsyncSession, int, int], Awaitable[list[Delivery]]]
"""Up to ``limit`` events after a seq, read with the session it is given."""

logger = logging.getLogger(__name__)

MAX_SEQ = 2**62

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
SSE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events: `id: <seq>`, `event: <kind>`, `data: <json>`",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}


def resume_point(after: int | None, last_event_id: str | None) -> int:
    """Where a stream resumes: ``Last-Event-ID`` wins over ``?after=``; 0 is the beginning."""
    if last_event_id is not None and last_event_id.strip():
        try:
            value = int(last_event_id.strip())
        except ValueError:
            raise BadRequest("Last-Event-ID must be the seq of an event.") from None
        if not 0 <= value <= MAX_SEQ:
            raise BadRequest(f"Last-Event-ID must be a seq between 0 and {MAX_SEQ}.")
        return value
    return after or 0


async def stream_response(
    request: Request,
    *,
    channel: str,
    after: int,
    backlog: StoredBacklog,
    claims: AccessTokenClaims,
    ends_after_seq: int | None = None,
) -> EventSourceResponse:
    """The stream of ``channel`` for the agent of ``claims``, for as long as its token is
    good: it ends at the token's expiry, or once the agent is deregistered or re-keyed."""
    settings: Settings = request.app.state.settings
    broker: Broker = request.app.state.broker
    metrics: HubMetrics = request.app.state.metrics
    presence: Presence = request.app.state.presence
    factory = request.app.state.session_factory
    agent_id = claims.sub
    request.app.state.admission.open_stream()
    ends_at = min(float(claims.exp), time.time() + settings.stream_max_seconds)
    lease = await presence.hold(agent_id, claims.cnf.get("jkt"), ends_at)  # 429/503 before it opens

    async def from_store(last: int, limit: int) -> list[Delivery]:
        async with factory() as db:
            return await backlog(db, last, limit)

    plan = StreamPlan(
        channel=channel,
        after=after,
        backlog=from_store,
        me=agent_id,
        keepalive_seconds=settings.keepalive_seconds,
        queue_frames=settings.stream_queue_frames,
        ends_after_seq=ends_after_seq,
        lease=lease,
    )

    async def frames() -> Any:
        metrics.open_streams.inc()
        try:
            async for chunk in event_stream(
                broker,
                plan,
                on_frames=metrics.deliveries.inc,
                on_overflow=metrics.stream_catchups.inc,
            ):
                yield chunk
        finally:
            metrics.open_streams.dec()

    return HubEventSource(
        frames(),
        headers=SSE_HEADERS,
        ping=0,
        send_timeout=settings.stream_send_timeout_seconds,
        watchdog=request.app.state.send_watchdog,
        on_close=lambda: presence.release(lease),
    )


class SendWatchdog:
    """Lets go of streams whose current send has been blocked longer than their timeout.

    One sweep a second over the open streams replaces a timer around every send: at 1,000
    streams, arming and cancelling a timer per send was a third of a delivery's cost.
    """

    def __init__(self, interval_seconds: float = 1.0) -> None:
        self.interval = interval_seconds
        self._streams: set[HubEventSource] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="sse-send-watchdog")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def watch(self, stream: HubEventSource) -> None:
        self._streams.add(stream)

    def forget(self, stream: HubEventSource) -> None:
        self._streams.discard(stream)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            now = time.monotonic()
            for stream in list(self._streams):
                stream.check_send(now)


class HubEventSource(EventSourceResponse):
    """sse-starlette's response; a reader that stopped reading is let go quietly.

    Nothing is lost by it: the client resumes with ``Last-Event-ID``. The per-send timeout
    is enforced by the watchdog's sweep instead of a timer per send.
    """

    def __init__(
        self,
        *args: Any,
        watchdog: SendWatchdog,
        on_close: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._watchdog = watchdog
        self._on_close = on_close
        self._sender: asyncio.Task[Any] | None = None
        self._send_since: float | None = None
        self._timed_out = False
        self._started = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except SendTimeoutError:
            logger.info("closed a stream whose reader took nothing for %ss", self.send_timeout)
        finally:
            self._watchdog.forget(self)
            if self._on_close is not None:
                self._on_close()
        if self.active and self._started:
            # sse-starlette stopped the stream because the server is shutting down; end the
            # body properly, so the client sees a clean end (and resumes elsewhere with
            # Last-Event-ID) and the server logs no "returned without completing response"
            self.active = False
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _stream_response(self, send: Send) -> None:
        self._started = True  # its first step sends the response's start
        await super()._stream_response(send)

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        if self.send_timeout is None:
            await super()._send_with_timeout(send, message)
            return
        if self._sender is None:
            self._sender = asyncio.current_task()
            self._watchdog.watch(self)
        self._send_since = time.monotonic()
        try:
            await send(message)
        except asyncio.CancelledError:
            if self._timed_out and self._sender is not None:
                self._sender.uncancel()
                raise SendTimeoutError() from None
            raise
        finally:
            self._send_since = None

    def check_send(self, now: float) -> None:
        """Called by the watchdog: cancel a send blocked for longer than the timeout."""
        since, timeout = self._send_since, self.send_timeout
        if since is None or timeout is None or self._timed_out or self._sender is None:
            return
        if now - since > timeout:
            self._timed_out = True
            self._sender.cancel()
