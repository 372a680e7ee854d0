"""Serving a numbered event stream over SSE: frames we encode ourselves, written from the
request's own task (sse-starlette documents the routes and signals the server's exit)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import Request
from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette.sse import AppStatus
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from agenthub.protocol.tokens import AccessTokenClaims
from app.broker import Broker, Delivery
from app.config import Settings
from app.errors import BadRequest
from app.metrics import HubMetrics
from app.services.presence import Presence, StreamLease
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
) -> HubEventStream:
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

    return HubEventStream(
        frames(),
        lease=lease,
        send_timeout=settings.stream_send_timeout_seconds,
        watchdog=request.app.state.send_watchdog,
        on_close=lambda: presence.release(lease),
    )


def server_exiting() -> bool:
    """Whether uvicorn is shutting down: it got its exit signal (sse-starlette's
    ``AppStatus`` sees it), or the server whose method handles SIGTERM, as uvicorn installs
    it while it serves, was told to exit (``should_exit``, as sse-starlette looks)."""
    if AppStatus.should_exit:
        return True
    server = getattr(signal.getsignal(signal.SIGTERM), "__self__", None)
    return bool(getattr(server, "should_exit", False))


class SendWatchdog:
    """Lets go of streams whose current send has been blocked longer than their timeout,
    and ends every stream once the server is shutting down.

    One sweep a second over the open streams replaces a timer around every send: at 1,000
    streams, arming and cancelling a timer per send was a third of a delivery's cost.
    """

    def __init__(self, interval_seconds: float = 0.5) -> None:
        self.interval = interval_seconds
        self._streams: set[HubEventStream] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="sse-send-watchdog")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def watch(self, stream: HubEventStream) -> None:
        self._streams.add(stream)

    def forget(self, stream: HubEventStream) -> None:
        self._streams.discard(stream)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            now = time.monotonic()
            exiting = server_exiting()  # streams end, so the server need not wait for them
            for stream in list(self._streams):
                if exiting:
                    stream.stop()
                stream.check_send(now)


class HubEventStream(Response):
    """An event stream written from the request's own task: the response's start, then each
    chunk of ``frames`` as one write, then the end.

    sse-starlette's response ran three tasks in a task group per stream (the writer, a
    disconnect listener, a shutdown listener), 17 KiB of each idle stream's 53 KiB. Here one
    small task listens for the disconnect, which ends the stream's lease (waking its wait);
    the watchdog's sweep ends every stream at the server's shutdown (sse-starlette's
    ``AppStatus``, which sees uvicorn's exit signal) and cancels a send blocked longer than
    ``send_timeout``. Nothing is lost by an ending: the client resumes with
    ``Last-Event-ID``. sse-starlette stays as the routes' documented response class.
    """

    media_type = "text/event-stream"

    def __init__(
        self,
        frames: AsyncIterator[bytes],
        *,
        lease: StreamLease,
        send_timeout: float,
        watchdog: SendWatchdog,
        on_close: Callable[[], None],
    ) -> None:
        self.status_code = 200
        self.background = None
        self.raw_headers = [(b"content-type", b"text/event-stream; charset=utf-8")] + [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in SSE_HEADERS.items()
        ]
        self.frames = frames
        self.lease = lease
        self.send_timeout = send_timeout
        self._watchdog = watchdog
        self._on_close = on_close
        self._sender: asyncio.Task[Any] | None = None
        self._send_since: float | None = None
        self._timed_out = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = {"type": "http.response.start", "status": 200, "headers": self.raw_headers}
        if scope.get("method") == "HEAD":
            self._on_close()
            await send(start)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        self._sender = asyncio.current_task()
        listener: asyncio.Future[None] | None = None
        self._watchdog.watch(self)
        try:
            await self._send(send, start)
            listener = asyncio.ensure_future(self._listen(receive))
            async for chunk in self.frames:
                await self._send(
                    send, {"type": "http.response.body", "body": chunk, "more_body": True}
                )
            await self._send(send, {"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if self._sender is None:
                raise
            if self._timed_out:
                self._sender.uncancel()
                logger.info("closed a stream whose reader took nothing for %ss", self.send_timeout)
            elif server_exiting():  # the server's graceful wait ran out: the stream just ends
                self._sender.uncancel()
                with contextlib.suppress(Exception):  # a clean end: the client resumes elsewhere
                    async with asyncio.timeout(1):
                        await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                raise
        finally:
            if listener is not None:
                listener.cancel()
            self._watchdog.forget(self)
            self._on_close()
            with contextlib.suppress(Exception):
                await self.frames.aclose()  # type: ignore[attr-defined]

    async def _listen(self, receive: Receive) -> None:
        """Until the client goes away: then the stream's lease ends, and with it the stream."""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.lease.end()
                return

    async def _send(self, send: Send, message: Message) -> None:
        self._send_since = time.monotonic()
        try:
            await send(message)
        finally:
            self._send_since = None

    def stop(self) -> None:
        """End the stream after what it is writing (the server is shutting down)."""
        self.lease.end()

    def check_send(self, now: float) -> None:
        """Called by the watchdog: cancel a send blocked for longer than the timeout."""
        since = self._send_since
        if since is None or self._timed_out or self._sender is None:
            return
        if now - since > self.send_timeout:
            self._timed_out = True
            self._sender.cancel()
