"""Consuming the hub's event streams (a group's, or the agent's inbox) with automatic resume.

``EventStream`` is an async iterator of ``HubEvent``. It remembers the last ``seq`` it
handed out; when the connection drops it reconnects with ``Last-Event-ID`` after a short,
growing pause, so a consumer sees every event once, in order, across disconnects. It stops
by itself when the hub ends the stream after a ``member`` event that ends the agent's
membership (state ``left`` or ``removed``), or after the ``state`` event of the group's
conclusion (its last); a 403 or 404 from the hub raises ``HubRequestError``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
import orjson

import agenthub.tracing as tracing
from agenthub.errors import HubRequestError
from agenthub.lanes import Backoff, transient


class StreamingHub(Protocol):
    """What a stream needs of its hub client (``agenthub.hub.HubClient`` is one)."""

    agent_id: str | None

    def open_stream(
        self, path: str, *, last_event_id: int, timeout: httpx.Timeout
    ) -> AbstractAsyncContextManager[httpx.Response]: ...

    def forget_token(self) -> None: ...

    def raise_or_json(self, response: httpx.Response) -> Any: ...


ENDING_STATES = frozenset({"left", "removed"})
READ_TIMEOUT_SECONDS = 60.0
"""Longer than the hub's keep-alive interval (15 s by default): silence past it is a dead link."""
FIRST_RETRY_SECONDS = 0.1
MAX_RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class HubEvent:
    seq: int
    kind: str
    data: dict[str, Any]
    trace: str | None = None
    """The ``traceparent`` of the event's publish (a group post's, when the hub traces): link
    a span of your own to it with ``agenthub.tracing.span(..., links=[event.trace])``."""


async def parse_sse(lines: AsyncIterator[str]) -> AsyncIterator[HubEvent]:
    """Events from SSE lines; comments (keep-alives) are skipped, events without id too."""
    seq: int | None = None
    kind = "message"
    data: list[str] = []
    trace: str | None = None
    async for line in lines:
        if not line:
            if data and seq is not None:
                yield HubEvent(seq, kind, orjson.loads("\n".join(data)), trace)
            seq, kind, data, trace = None, "message", [], None
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                seq = int(value)
            elif name == "event":
                kind = value
            elif name == "data":
                data.append(value)
            elif name == tracing.TRACEPARENT:
                trace = value


class EventStream:
    """Iterate with ``async for event in stream``; ``close()`` (or leaving the loop) ends it."""

    def __init__(
        self,
        hub: StreamingHub,
        path: str,
        *,
        after: int = 0,
        read_timeout: float = READ_TIMEOUT_SECONDS,
        max_retry_seconds: float = MAX_RETRY_SECONDS,
    ) -> None:
        self.hub = hub
        self.path = path
        self.last_seq = after
        self.reconnects = 0
        self._timeout = httpx.Timeout(10.0, read=read_timeout)
        self._backoff = Backoff(FIRST_RETRY_SECONDS, max_retry_seconds)  # for ever, until closed
        self._closed = False

    def close(self) -> None:
        self._closed = True

    def __aiter__(self) -> AsyncGenerator[HubEvent, None]:
        return self._events()

    async def _events(self) -> AsyncGenerator[HubEvent, None]:
        retry = self._backoff.start()
        connected_once = False
        while not self._closed:
            try:
                async with self.hub.open_stream(
                    self.path, last_event_id=self.last_seq, timeout=self._timeout
                ) as response:
                    if response.status_code == 401:
                        self.hub.forget_token()
                        raise _Retry
                    if response.status_code >= 400:
                        await response.aread()
                        self.hub.raise_or_json(response)
                    if connected_once:
                        self.reconnects += 1
                    connected_once = True
                    retry.reset()
                    ending = False
                    async for event in parse_sse(response.aiter_lines()):
                        if event.seq <= self.last_seq:
                            continue
                        self.last_seq = event.seq
                        ending = self._ends_me(event)
                        if event.trace is not None:
                            self._delivered(event)
                        yield event
                        if self._closed:
                            return
                    if ending:
                        # the hub closed the stream right after ending our membership (an
                        # older leaving, replayed, is followed by more events instead)
                        return
            except HubRequestError as error:
                if not transient(error.status, error.problem):
                    raise
            except (_Retry, httpx.TransportError, httpx.StreamError):
                pass
            if self._closed:
                return
            await retry.pause()

    def _delivered(self, event: HubEvent) -> None:
        """A delivery span (OpenTelemetry's messaging ``process``), linked to the publish."""
        group = self.path.removeprefix("/v1/groups/").partition("/")[0]
        attributes = {
            "messaging.system": "agenthub",
            "messaging.operation.type": "process",
            "messaging.destination.name": group,
            "messaging.message.id": event.data.get("id"),
            "gen_ai.conversation.id": event.data.get("sessionId"),
            "gen_ai.agent.id": self.hub.agent_id,
        }
        with tracing.span(
            f"process {group}", kind="CONSUMER", attributes=attributes, links=[event.trace]
        ):
            pass

    def _ends_me(self, event: HubEvent) -> bool:
        if event.kind == "state" and event.data.get("state") == "conclusion":
            return self.path.startswith("/v1/groups/")  # a concluded group's last event
        return (
            event.kind == "member"
            and event.data.get("agentId") == self.hub.agent_id
            and event.data.get("state") in ENDING_STATES
            and "groupId" in event.data
            and self.path.startswith("/v1/groups/")
        )


class _Retry(Exception):
    pass
