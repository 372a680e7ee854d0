"""Posting an agent's own messages to the hub, in order, retried until the hub has them.

The hub is never on the call path: a briefly unreachable hub delays the record, it does not
lose it. A retry sends the same message id, so the hub stores it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

import agenthub.tracing as tracing
from agenthub.errors import HubRequestError
from agenthub.hub import HubClient
from agenthub.lanes import Backoff, Lanes, problem_of, transient
from agenthub.outbox import Outbox
from agenthub.paths import segment
from agenthub.transport import current_request_id, request_id

logger = logging.getLogger(__name__)

RETRY_DEADLINE_SECONDS = 120.0
FIRST_BACKOFF_SECONDS = 0.05
MAX_BACKOFF_SECONDS = 5.0
# records a session may have waiting for the hub before its callers wait too
MAX_BACKLOG = 256
MAX_TOTAL_BACKLOG = 4096
"""Records of all sessions together: the bound for callers that open a session each time
(an A2A caller's new contexts), which no session's own backlog would hold back."""
LINGER_SECONDS = 0.005
"""How long a session's lane waits for more records before it sends what it holds: a call's
records (the command, the partner's moves) come a few hundred microseconds apart, and each
request costs the agent and the hub far more than a record in it (``bench.p2p``)."""


@dataclass(frozen=True)
class _Item:
    route: str  # the session route it goes to: messages, or answers
    body: Mapping[str, Any]
    size: int  # the body's bytes, as JSON
    outbox_id: int | None = None
    trace: str | None = None  # the traceparent of the span it was recorded in, when tracing
    request_id: str | None = None  # the request being handled when it was recorded


@dataclass
class RecordFailure:
    session_id: str
    message: Mapping[str, Any]
    status: int | None
    detail: str


MAX_BATCH_ITEMS = 50
MAX_BATCH_BYTES = 256 << 10
MAX_REQUEST_ITEMS = 100  # the hub's most a batch request
MAX_REQUEST_BYTES = 768 << 10  # under the hub's default body limit (1 MiB)
MAX_REQUESTS_OUT = 2
"""Batch requests the recorder has out at once: the sessions' batches that come meanwhile
go together in the next (``POST /v1/sessions/messages:batch``)."""


def _head_batch(queue: deque[_Item]) -> list[_Item]:
    """The head of the queue, with the messages after it that go with it in one batch
    request (a head that is no message, a relayed answer, goes alone)."""
    batch: list[_Item] = []
    size = 0
    for item in itertools.islice(queue, MAX_BATCH_ITEMS):
        if item.route != "messages":
            return batch or [item]
        size += item.size
        if batch and size > MAX_BATCH_BYTES:
            break
        batch.append(item)
    return batch


class HubRecorder:
    """Queues the agent's records for the hub and sends them in the background, in order
    per session (``agenthub.lanes``), batched when they queue up. With ``outbox`` (a file
    path), records not yet at the hub survive the agent (``agenthub.outbox``)."""

    def __init__(
        self,
        hub: HubClient,
        *,
        retry_deadline_seconds: float = RETRY_DEADLINE_SECONDS,
        max_backlog: int = MAX_BACKLOG,
        outbox: str | os.PathLike[str] | None = None,
        linger_seconds: float = LINGER_SECONDS,
    ) -> None:
        self.hub = hub
        self.backoff = Backoff(
            FIRST_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS, deadline=retry_deadline_seconds
        )
        self.max_backlog = max_backlog
        self.failures: list[RecordFailure] = []
        self.recorded = 0
        self.outbox = Outbox(outbox) if outbox is not None else None
        self._resumed = False
        # one ordered lane a session: the records that queue while its request is out, or
        # come within LINGER_SECONDS of the first, go together in its next request
        # (``…/messages:batch``, up to MAX_BATCH_ITEMS), whichever tasks they are of. A lane
        # per task sent 1.8 records a request, the hub paying its per-request cost for each
        # (bench.p2p: ~1.4 ms of hub CPU a record); four lanes a session sent a busy partner's
        # records two or three a request, and the requests, not the records, were a third of
        # its CPU (bench.p2p at 16 callers, py-spy). One lane a session once held callers at
        # the backlog bound, while the hub spent ~1 ms a record; it spends ~0.3 now.
        self._lanes: Lanes[str, _Item] = Lanes(
            self._send,
            take=_head_batch,
            name="agenthub-recorder",
            linger=linger_seconds,
            fill=MAX_BATCH_ITEMS,
        )
        self._bridges: dict[str, Mapping[str, Any]] = {}
        # the sessions' batches waiting for a request, and the requests' tasks
        self._waiting: deque[_Waiting] = deque()
        self._posting: set[asyncio.Task[None]] = set()

    def open_bridge(self, session_id: str, bridge: Mapping[str, Any]) -> None:
        """The session is a bridge session of this agent's, with ``bridge``
        (``SessionBridge``), not opened at the hub yet: its first records open it, their
        batch naming it in ``bridges``, retried until the hub has them; should the hub
        refuse to open it, they are given up. Its records must begin with a message (a
        relayed answer opens nothing)."""
        self._bridges[session_id] = bridge

    def record(self, session_id: str, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for the session's history; returns at once."""
        self._queue(session_id, message.get("taskId"), "messages", message)

    def relay(
        self,
        session_id: str,
        task_id: str | None,
        *,
        partner_id: str,
        answer: bytes,
        signature: str | None,
        nonce: str | None,
    ) -> None:
        """Queue a partner's answer for its task's record (``POST …/answers``): for a partner
        that does not record at the hub itself."""
        body = {
            "partnerId": partner_id,
            "answer": answer.decode("utf-8", "replace"),
            "signature": signature,
            "nonce": nonce,
        }
        self._queue(session_id, task_id, "answers", body)

    def _queue(
        self, session_id: str, task_id: str | None, route: str, body: Mapping[str, Any]
    ) -> None:
        self.resume()
        kept = self.outbox.add(session_id, task_id, route, body) if self.outbox else None
        item = _Item(
            route, body, _size(body), kept, tracing.current_traceparent(), current_request_id()
        )
        self._lanes.put(session_id, item)

    def resume(self) -> None:
        """Queue again what the outbox kept from before (once; queuing and ``flush`` call
        it too). Needs the running event loop."""
        if self._resumed or self.outbox is None:
            return
        self._resumed = True
        for kept in self.outbox.pending():
            item = _Item(kept.route, kept.body, _size(kept.body), kept.id)
            self._lanes.put(kept.session_id, item)

    async def admit(self, session_id: str, timeout: float | None = None) -> None:
        """Return at once while the session's backlog is under ``max_backlog``.

        Past it, wait (up to ``timeout``) for the backlog to drain to half of it (a low-water
        mark: callers go on while the rest drains, instead of all waiting for an empty queue
        and then filling it at once), so a hub that falls behind sets the callers' pace
        instead of the queue growing without bound.
        """
        if self._backlog(session_id) >= self.max_backlog:
            await self._lanes.drain(
                to=self.max_backlog // 2, match=_in(session_id), timeout=timeout
            )

    async def admit_any(self, timeout: float | None = None) -> bool:
        """As ``admit``, for the records of every session together (``MAX_TOTAL_BACKLOG``);
        False if the backlog was still too long when ``timeout`` passed."""
        if self._backlog(None) < MAX_TOTAL_BACKLOG:
            return True
        return await self._lanes.drain(to=MAX_TOTAL_BACKLOG // 2, match=None, timeout=timeout)

    def _backlog(self, session_id: str | None) -> int:
        """Records queued or being sent (a record leaves its queue once it is settled)."""
        return self._lanes.backlog(_in(session_id))

    async def flush(self, timeout: float | None = None, *, session_id: str | None = None) -> bool:
        """Wait until what was queued (for one session, or all) reached the hub or gave up.

        False if ``timeout`` passed first; the records keep being retried in the background.
        """
        self.resume()
        return await self._lanes.drain(match=_in(session_id), timeout=timeout)

    async def aclose(self, timeout: float = 5.0) -> None:
        await self.flush(timeout)
        await self._lanes.aclose()
        posting = list(self._posting)
        for task in posting:
            task.cancel()
        for task in posting:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.outbox is not None:
            self.outbox.close()

    async def _send(self, session_id: str, batch: list[_Item]) -> None:
        if batch[0].route == "messages":
            await self._deliver_batch(session_id, batch)
        else:
            await self._deliver(session_id, batch[0])

    async def _post_batch(self, session_id: str, batch: list[_Item]) -> _Posted:
        """``batch`` sent in a batch request, with the batches of other sessions waiting
        then (``_post_waiting``): each item's outcome, or what went wrong."""
        waiting = _Waiting(session_id, batch, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        if len(self._posting) < MAX_REQUESTS_OUT:
            task = asyncio.create_task(self._post_waiting(), name="agenthub-recorder-post")
            self._posting.add(task)
            task.add_done_callback(self._posting.discard)
        return await waiting.posted

    async def _post_waiting(self) -> None:
        """Send what waits, in requests of up to ``MAX_REQUEST_ITEMS``, until nothing does.
        The lanes whose batches are ready in this turn of the loop join the first."""
        await asyncio.sleep(0)
        while self._waiting:
            taken = [self._waiting.popleft()]
            items, size = len(taken[0].batch), sum(i.size for i in taken[0].batch)
            while self._waiting:
                batch = self._waiting[0].batch
                items, size = items + len(batch), size + sum(i.size for i in batch)
                if items > MAX_REQUEST_ITEMS or size > MAX_REQUEST_BYTES:
                    break
                taken.append(self._waiting.popleft())
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

    async def _post_together(self, taken: list[_Waiting]) -> list[_Posted]:
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
        bridges = {s: dict(self._bridges[s]) for s in sessions if s in self._bridges}
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
                failed = _Posted(
                    None, response.status_code, problem_of(response), response.text[:500]
                )
                return [failed] * len(taken)
            outcomes = response.json()["items"]
        except (httpx.TransportError, HubRequestError) as exc:
            return [_Posted(None, getattr(exc, "status", None), None, str(exc))] * len(taken)
        except (ValueError, KeyError, TypeError) as exc:
            return [_Posted(None, None, None, f"no batch answer: {exc}")] * len(taken)
        if not isinstance(outcomes, list) or len(outcomes) != len(items):
            return [_Posted(None, None, None, "no outcome for each item")] * len(taken)
        for session_id in bridges:
            self._bridges.pop(session_id, None)  # opened now (or there already, or refused)
        posted, at = [], 0
        for waiting in taken:
            posted.append(_Posted(outcomes[at : at + len(waiting.batch)], 200, None, ""))
            at += len(waiting.batch)
        return posted

    async def _deliver_batch(self, session_id: str, batch: list[_Item]) -> None:
        """Post queued messages in a batch request (with other sessions' waiting then); an
        item the hub could not take yet, or a batch that did not get through, goes again one
        by one (the hub folds a task's records in the order they were sent, whatever order
        they come in). A batch that opens its session is sent again whole until the hub
        takes it."""
        posted = await self._post_batch(session_id, batch)
        if session_id in self._bridges and posted.outcomes is None:
            retry = self.backoff.start()
            while posted.outcomes is None:
                retryable = transient(posted.status, posted.problem)
                if not retryable or not await retry.pause():
                    why = f"the session could not be opened: {posted.status} {posted.detail}"
                    for item in batch:
                        self._give_up(session_id, item, posted.status, why, final=not retryable)
                    return
                posted = await self._post_batch(session_id, batch)
        outcomes = posted.outcomes
        if outcomes is None:
            for item in batch:
                await self._deliver(session_id, item)
            return
        for item, outcome in zip(batch, outcomes, strict=True):
            outcome = outcome if isinstance(outcome, dict) else {}
            status, problem = outcome.get("status"), outcome.get("problem")
            if isinstance(status, int) and status < 300:
                self._recorded(item)
            elif not isinstance(status, int) or transient(status, problem):
                await self._deliver(session_id, item)
            else:
                self._give_up(session_id, item, status, str(problem)[:500], final=True)

    def _recorded(self, item: _Item) -> None:
        self.recorded += 1
        if self.outbox is not None and item.outbox_id is not None:
            self.outbox.settle([item.outbox_id])

    def _give_up(
        self, session_id: str, item: _Item, status: int | None, detail: str, *, final: bool
    ) -> None:
        """Stop sending ``item``: refused for good (``final``), or still failing at the retry
        deadline (an outbox keeps it for the next ``resume``)."""
        message = item.body
        logger.warning("hub did not record message %s: %s %s", message.get("id"), status, detail)
        self.failures.append(RecordFailure(session_id, message, status, detail))
        if final and self.outbox is not None and item.outbox_id is not None:
            self.outbox.settle([item.outbox_id])

    async def _deliver(self, session_id: str, item: _Item) -> None:
        retry = self.backoff.start()
        path = f"/v1/sessions/{segment(session_id)}/{item.route}"
        while True:
            status: int | None = None
            try:
                with tracing.attached(item.trace), request_id(item.request_id):
                    response = await self.hub.request("POST", path, json=dict(item.body))
                status = response.status_code
                if status < 300:
                    self._recorded(item)
                    return
                detail = response.text[:500]
                retryable = transient(status, problem_of(response))
            except (httpx.TransportError, HubRequestError) as exc:
                detail = str(exc)
                status = getattr(exc, "status", None)
                retryable = transient(status)
            if not retryable or not await retry.pause():
                self._give_up(session_id, item, status, detail, final=not retryable)
                return


@dataclass(frozen=True, slots=True)
class _Waiting:
    """A session's batch waiting for a request, and what became of it once sent."""

    session_id: str
    batch: list[_Item]
    posted: asyncio.Future[_Posted]


def _size(body: Mapping[str, Any]) -> int:
    return len(orjson.dumps(dict(body)))


@dataclass(frozen=True, slots=True)
class _Posted:
    """What became of a batch request: each item's outcome, or the status (None: no
    answer), the problem and what else was said."""

    outcomes: list[Any] | None
    status: int | None
    problem: Any
    detail: str


def _in(session_id: str | None) -> Any:
    """The lane of one session (``None``: every lane)."""
    if session_id is None:
        return None
    return lambda key: key == session_id
