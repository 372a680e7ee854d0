"""Serving a numbered event stream over SSE: frames we encode ourselves, written below the
middleware, from the request's own task.

The route (FastAPI, with its dependencies, validation and problem+json errors) decides
whether a stream opens. Its response, ``HubEventStream``, does not write from inside the
middleware: it hands itself to ``StreamHandoff``, the outermost ASGI layer, which writes it on
the server's own ``send`` once the middleware and the route have returned. A frame then
costs one ``send`` of the server, not one per middleware wrapper, and an idle stream holds no
middleware frames, exit stacks or request objects. sse-starlette stays the routes' documented
response class (OpenAPI) and the shutdown signal (``AppStatus``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette.sse import AppStatus
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from agenthub.protocol.tokens import AccessTokenClaims
from app.broker import Broker, Delivery
from app.config import Settings
from app.db import SessionFactory
from app.limits import Admission
from app.metrics import HubMetrics
from app.middleware import HANDOFF, with_request_id
from app.stopping import stop
from app.streams.errors import BadLastEventId
from app.streams.presence import Presence, StreamLease
from app.streams.service import Fanout, StreamPlan, event_stream

StoredBacklog = Callable[[AsyncSession, int, int], Awaitable[list[Delivery]]]
"""Up to ``limit`` events after a seq, read with the session it is given."""

logger = logging.getLogger(__name__)

MAX_SEQ = 2**62

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RAW_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8")] + [
    (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in SSE_HEADERS.items()
]
SSE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events: `id: <seq>`, `event: <kind>`, `data: <json>`",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
END: Message = {"type": "http.response.body", "body": b"", "more_body": False}


def resume_point(after: int | None, last_event_id: str | None) -> int:
    """Where a stream resumes: ``Last-Event-ID`` wins over ``?after=``; 0 is the beginning."""
    if last_event_id is not None and last_event_id.strip():
        try:
            value = int(last_event_id.strip())
        except ValueError:
            raise BadLastEventId("Last-Event-ID must be the seq of an event.") from None
        if not 0 <= value <= MAX_SEQ:
            raise BadLastEventId(f"Last-Event-ID must be a seq between 0 and {MAX_SEQ}.")
        return value
    return after or 0


@dataclass(frozen=True, slots=True)
class Streams:
    """What opening an event stream takes of the app (``app.deps.StreamsDep`` gives it)."""

    settings: Settings
    presence: Presence
    admission: Admission
    session_factory: SessionFactory
    broker: Broker
    metrics: HubMetrics
    watchdog: SendWatchdog

    async def hold(self, agent_id: str, key_thumbprint: str | None, ends_at: float) -> StreamLease:
        """A lease for a new stream: 503 past this second's admissions, then ``Presence``'s
        429/503 before it opens."""
        self.admission.open_stream()
        return await self.presence.hold(agent_id, key_thumbprint, ends_at)

    def writer(self, plan: StreamPlan, *, broker: Fanout | None = None) -> StreamWriter:
        return StreamWriter(
            plan,
            broker=broker or self.broker,
            metrics=self.metrics,
            presence=self.presence,
            send_timeout=self.settings.stream_send_timeout_seconds,
            watchdog=self.watchdog,
        )

    async def open(
        self,
        *,
        channel: str,
        after: int,
        backlog: StoredBacklog,
        claims: AccessTokenClaims,
        ends_after_seq: int | None = None,
        last_seq: int | None = None,
        encode: Callable[[Delivery], bytes] | None = None,
        prepare: Callable[[list[Delivery]], Awaitable[None]] | None = None,
        first: bytes = b"",
    ) -> HubEventStream:
        """The stream of ``channel`` for the agent of ``claims``, for as long as its token
        is good: it ends at the token's expiry, or once the agent is deregistered or
        re-keyed."""
        settings, factory = self.settings, self.session_factory
        agent_id = claims.sub
        ends_at = min(float(claims.exp), time.time() + settings.stream_max_seconds)
        lease = await self.hold(agent_id, claims.cnf.get("jkt"), ends_at)

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
            last_seq=last_seq,
            lease=lease,
            encode=encode,
            prepare=prepare,
            first=first,
        )
        return HubEventStream(self.writer(plan))


def server_exiting() -> bool:
    """Whether uvicorn got its exit signal (sse-starlette's ``AppStatus`` sees it), or the
    server whose method handles SIGTERM, as uvicorn installs it while it serves, was told to
    exit (``should_exit``, where sse-starlette looks too). ``HubServer`` needs neither: it
    ends the streams itself when it shuts down."""
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

    def __init__(self, interval_seconds: float = 1.0) -> None:
        self.interval = interval_seconds
        self._streams: set[StreamWriter] = set()
        self._task: asyncio.Task[None] | None = None
        self.closing = False  # the server is shutting down: streams end, new ones at once
        self.server_ends_streams = False
        """Set by ``HubServer``, which calls ``end_all`` itself: the sweep then does not look
        for uvicorn's exit signal, which is process-wide (another server's, in tests)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="sse-send-watchdog")

    async def close(self) -> None:
        await stop(self._task)

    def watch(self, stream: StreamWriter) -> None:
        self._streams.add(stream)
        if self.closing:  # it got past its route while the server began to shut down
            stream.stop()

    def forget(self, stream: StreamWriter) -> None:
        self._streams.discard(stream)

    def end_all(self) -> int:
        """End every stream after what it is writing (the server is shutting down): each
        client sees a clean end, and resumes with ``Last-Event-ID``. Returns how many."""
        self.closing = True
        streams = list(self._streams)
        for stream in streams:
            stream.stop()
        return len(streams)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            now = time.monotonic()
            if not self.server_ends_streams and server_exiting():
                self.end_all()  # streams end, so the server need not wait for them
            for stream in list(self._streams):
                stream.check_send(now)


class HubEventStream(Response):
    """A stream route's response. Called by the route, it hands its writer to
    ``StreamHandoff`` when that is outside (the hub's app), else writes the stream itself."""

    media_type = "text/event-stream"

    def __init__(self, writer: StreamWriter) -> None:
        self.status_code = 200
        self.background = None
        self.raw_headers = RAW_HEADERS
        self.writer = writer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if HANDOFF in scope:
            scope[HANDOFF] = self.writer
        else:
            await self.writer.run(scope, receive, send)


class StreamWriter:
    """One open stream: the start, each chunk of the stream's frames as one ``send``, then
    the end, all from the request's own task.

    sse-starlette's response ran three tasks in a task group per stream (the writer, a
    disconnect listener, a shutdown listener) and a wrapper per send. Here one small task
    listens for the disconnect, which ends the stream's lease (waking its wait); the
    watchdog's sweep cancels a send blocked longer than ``send_timeout`` and ends the
    streams at the server's exit. Nothing is lost by an ending: the client resumes with
    ``Last-Event-ID``.
    """

    __slots__ = (
        "_send_since",
        "_sender",
        "_timed_out",
        "broker",
        "lease",
        "metrics",
        "plan",
        "presence",
        "send_timeout",
        "watchdog",
    )

    def __init__(
        self,
        plan: StreamPlan,
        *,
        broker: Fanout,
        metrics: HubMetrics,
        presence: Presence,
        send_timeout: float,
        watchdog: SendWatchdog,
    ) -> None:
        assert plan.lease is not None
        self.plan = plan
        self.lease: StreamLease = plan.lease
        self.broker = broker
        self.metrics = metrics
        self.presence = presence
        self.send_timeout = send_timeout
        self.watchdog = watchdog
        self._sender: asyncio.Task[Any] | None = None
        self._send_since: float | None = None
        self._timed_out = False

    async def run(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = with_request_id(scope, RAW_HEADERS)
        start = {"type": "http.response.start", "status": 200, "headers": headers}
        self._sender = sender = asyncio.current_task()
        assert sender is not None
        listener: asyncio.Task[None] | None = None
        metrics = self.metrics
        self.watchdog.watch(self)
        metrics.open_streams.inc()
        frames = event_stream(
            self.broker,
            self.plan,
            on_frames=metrics.deliveries.inc,
            on_overflow=metrics.stream_catchups.inc,
        )
        try:
            async with contextlib.aclosing(frames):
                await self._send(send, start)
                # after the start: a listener started before it made paced p99 250 ms
                listener = asyncio.get_running_loop().create_task(self._listen(receive))
                async for chunk in frames:
                    if not self.lease.valid():  # ended while the frames were made: not sent
                        break
                    await self._send(
                        send, {"type": "http.response.body", "body": chunk, "more_body": True}
                    )
            await self._send(send, END)
        except asyncio.CancelledError:
            if self._timed_out:
                sender.uncancel()
                logger.info("closed a stream whose reader took nothing for %ss", self.send_timeout)
            else:
                raise  # the server's graceful wait ran out: it closes the connection
        finally:
            if listener is not None:
                listener.cancel()
            self.watchdog.forget(self)
            self.release()
            metrics.open_streams.dec()

    def release(self) -> None:
        """Let the stream's lease go: once it has ended, or when its request ended another
        way before it was written (``StreamHandoff``). Releasing twice is harmless."""
        self.presence.release(self.lease)

    async def _listen(self, receive: Receive) -> None:
        """Until the client goes away: then the stream's lease ends, and with it the stream."""
        try:
            while (await receive())["type"] != "http.disconnect":
                pass
        finally:  # gone, or the listener failed: either way the stream cannot go on
            self.lease.end()

    async def _send(self, send: Send, message: Message) -> None:
        self._send_since = time.monotonic()
        try:
            await send(message)
        finally:
            self._send_since = None

    def stop(self) -> None:
        """End the stream after what it is writing."""
        self.lease.end()

    def check_send(self, now: float) -> None:
        """Called by the watchdog: cancel a send blocked for longer than the timeout."""
        since = self._send_since
        if since is None or self._timed_out or self._sender is None:
            return
        if now - since > self.send_timeout:
            self._timed_out = True
            self._sender.cancel()
