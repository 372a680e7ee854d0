"""The recorder's batch requests: the batches of an agent's sessions that are ready at the
same time go to the hub together, in one ``POST /v1/sessions/messages:batch``.

The recorder keeps one ordered lane a session (``agenthub.recorder``), each sending its
batch and waiting for its outcome before the next; a kit partner serving A2A callers has a
session for every context, so one request a lane cost the partner and the hub a request a
call (the partner's requests to the hub were a fifth of its CPU under ``bench.p2p``'s
``kit_a2a``, py-spy). Here the lanes' batches wait for one of ``MAX_REQUESTS_OUT`` requests:
what waits when one leaves goes in it, up to ``MAX_REQUEST_ITEMS`` items and
``MAX_REQUEST_BYTES``. Each lane still hears what became of its own batch alone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

import agenthub.tracing as tracing
from agenthub.errors import HubRequestError
from agenthub.hub import HubClient
from agenthub.lanes import problem_of, transient
from agenthub.transport import request_id

MAX_REQUEST_ITEMS = 100  # the hub's most a batch request
MAX_REQUEST_BYTES = 768 << 10  # under the hub's default body limit (1 MiB)
MAX_REQUESTS_OUT = 2
"""Batch requests out at once: the sessions' batches that come meanwhile go together in the
next."""


@dataclass(frozen=True)
class Queued:
    """A record queued for the hub, as the recorder keeps it."""

    route: str  # the session route it goes to: messages, or answers
    body: Mapping[str, Any]
    size: int  # the body's bytes, as JSON
    outbox_id: int | None = None
    trace: str | None = None  # the traceparent of the span it was recorded in, when tracing
    request_id: str | None = None  # the request being handled when it was recorded


class BatchRequests:
    """The lanes' batches, sent together (see the module); ``bridges``: the bridge sessions
    not opened at the hub yet, by id, each opened by the request that first carries a
    batch of it."""

    def __init__(self, hub: HubClient) -> None:
        self.hub = hub
        self.bridges: dict[str, Mapping[str, Any]] = {}
        self.waiting: deque[_Waiting] = deque()
        self.posting: set[asyncio.Task[None]] = set()

    async def aclose(self) -> None:
        posting = list(self.posting)
        for task in posting:
            task.cancel()
        for task in posting:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def post(self, session_id: str, batch: list[Queued]) -> Posted:
        """``batch`` sent in a batch request, with the batches of other sessions waiting
        then (``_post_waiting``): each item's outcome, or what went wrong."""
        waiting = _Waiting(session_id, batch, asyncio.get_running_loop().create_future())
        self.waiting.append(waiting)
        if len(self.posting) < MAX_REQUESTS_OUT:
            task = asyncio.create_task(self._post_waiting(), name="agenthub-recorder-post")
            self.posting.add(task)
            task.add_done_callback(self.posting.discard)
        return await waiting.posted

    async def _post_waiting(self) -> None:
        """Send what waits, in requests of up to ``MAX_REQUEST_ITEMS``, until nothing does.
        The lanes whose batches are ready in this turn of the loop join the first."""
        await asyncio.sleep(0)
        while self.waiting:
            taken = [self.waiting.popleft()]
            items, size = len(taken[0].batch), sum(i.size for i in taken[0].batch)
            while self.waiting:
                batch = self.waiting[0].batch
                items, size = items + len(batch), size + sum(i.size for i in batch)
                if items > MAX_REQUEST_ITEMS or size > MAX_REQUEST_BYTES:
                    break
                taken.append(self.waiting.popleft())
            try:
                posted = await self._post_together(taken)
            except BaseException as exc:  # stopped: the lanes waiting on it stop too
                for waiting in taken:
                    if not waiting.posted.done():
                        waiting.posted.set_exception(exc)
                raise
            for waiting, outcome in zip(taken, posted, strict=True):
                if not waiting.posted.done():
                    waiting.posted.set_result(outcome)

    async def _post_together(self, taken: list[_Waiting]) -> list[Posted]:
        """One ``POST /v1/sessions/messages:batch`` of the batches ``taken`` (opening the
        bridge sessions among them not opened yet): what became of each."""
        items = []
        for waiting in taken:
            for item in waiting.batch:
                body = item.body
                if body.get("sessionId") is None:  # the request names each item's session
                    body = {**body, "sessionId": waiting.session_id}
                items.append(dict(body))
        sessions = {w.session_id for w in taken}
        bridges = {s: dict(self.bridges[s]) for s in sessions if s in self.bridges}
        json: dict[str, Any] = {"items": items}
        if bridges:
            json["bridges"] = bridges
        first = taken[0].batch[0]
        try:
            with tracing.attached(first.trace), request_id(first.request_id):
                response = await self.hub.request(  # sent as part of what recorded it
                    "POST", "/v1/sessions/messages:batch", json=json
                )
            if response.status_code != 200:
                problem = problem_of(response)
                if len(taken) > 1 and not transient(response.status_code, problem):
                    # refused for good (one lane's item or bridge, or too large together):
                    # each lane alone, so one lane's refusal is no other's
                    return [(await self._post_together([w]))[0] for w in taken]
                failed = Posted(None, response.status_code, problem, response.text[:500])
                return [failed] * len(taken)
            outcomes = response.json()["items"]
        except (httpx.TransportError, HubRequestError) as exc:
            return [Posted(None, getattr(exc, "status", None), None, str(exc))] * len(taken)
        except (ValueError, KeyError, TypeError) as exc:
            return [Posted(None, None, None, f"no batch answer: {exc}")] * len(taken)
        if not isinstance(outcomes, list) or len(outcomes) != len(items):
            return [Posted(None, None, None, "no outcome for each item")] * len(taken)
        for session_id in bridges:
            self.bridges.pop(session_id, None)  # opened now (or there already, or refused)
        posted, at = [], 0
        for waiting in taken:
            posted.append(Posted(outcomes[at : at + len(waiting.batch)], 200, None, ""))
            at += len(waiting.batch)
        return posted


@dataclass(frozen=True, slots=True)
class _Waiting:
    """A session's batch waiting for a request, and what became of it once sent."""

    session_id: str
    batch: list[Queued]
    posted: asyncio.Future[Posted]


def body_size(body: Mapping[str, Any]) -> int:
    return len(orjson.dumps(dict(body)))


@dataclass(frozen=True, slots=True)
class Posted:
    """What became of a batch request: each item's outcome, or the status (None: no
    answer), the problem and what else was said."""

    outcomes: list[Any] | None
    status: int | None
    problem: Any
    detail: str
