"""Posting an agent's own messages to the hub, in order, retried until the hub has them.

The hub is never on the call path: a briefly unreachable hub delays the record, it does not
lose it. A retry sends the same message id, so the hub stores it once.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

import agenthub.tracing as tracing
from agenthub.errors import HubRequestError
from agenthub.hub import HubClient
from agenthub.lanes import Backoff, Lanes, problem_of, transient
from agenthub.outbox import Outbox
from agenthub.paths import segment
from agenthub.record_requests import BatchRequests, Queued, body_size
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


@dataclass
class RecordFailure:
    session_id: str
    message: Mapping[str, Any]
    status: int | None
    detail: str


MAX_BATCH_ITEMS = 50
MAX_BATCH_BYTES = 256 << 10


def _head_batch(queue: deque[Queued]) -> list[Queued]:
    """The head of the queue, with the messages after it that go with it in one batch
    request (a head that is no message, a relayed answer, goes alone)."""
    batch: list[Queued] = []
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
        self._lanes: Lanes[str, Queued] = Lanes(
            self._send,
            take=_head_batch,
            name="agenthub-recorder",
            linger=linger_seconds,
            fill=MAX_BATCH_ITEMS,
        )
        self._requests = BatchRequests(hub)

    def open_bridge(self, session_id: str, bridge: Mapping[str, Any]) -> None:
        """The session is a bridge session of this agent's, with ``bridge``
        (``SessionBridge``), not opened at the hub yet: its first records open it, their
        batch naming it in ``bridges``, retried until the hub has them; should the hub
        refuse to open it, they are given up. Its records must begin with a message (a
        relayed answer opens nothing)."""
        self._requests.bridges[session_id] = bridge

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
        item = Queued(
            route, body, body_size(body), kept, tracing.current_traceparent(), current_request_id()
        )
        self._lanes.put(session_id, item)

    def resume(self) -> None:
        """Queue again what the outbox kept from before (once; queuing and ``flush`` call
        it too). Needs the running event loop."""
        if self._resumed or self.outbox is None:
            return
        self._resumed = True
        for kept in self.outbox.pending():
            item = Queued(kept.route, kept.body, body_size(kept.body), kept.id)
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
        await self._requests.aclose()
        if self.outbox is not None:
            self.outbox.close()

    async def _send(self, session_id: str, batch: list[Queued]) -> None:
        if batch[0].route == "messages":
            await self._deliver_batch(session_id, batch)
        else:
            await self._deliver(session_id, batch[0])

    async def _deliver_batch(self, session_id: str, batch: list[Queued]) -> None:
        """Post queued messages in a batch request (with other sessions' waiting then); an
        item the hub could not take yet, or a batch that did not get through, goes again one
        by one (the hub folds a task's records in the order they were sent, whatever order
        they come in). A batch that opens its session is sent again whole until the hub
        takes it."""
        posted = await self._requests.post(session_id, batch)
        if session_id in self._requests.bridges and posted.outcomes is None:
            retry = self.backoff.start()
            while posted.outcomes is None:
                retryable = transient(posted.status, posted.problem)
                if not retryable or not await retry.pause():
                    why = f"the session could not be opened: {posted.status} {posted.detail}"
                    for item in batch:
                        self._give_up(session_id, item, posted.status, why, final=not retryable)
                    return
                posted = await self._requests.post(session_id, batch)
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

    def _recorded(self, item: Queued) -> None:
        self.recorded += 1
        if self.outbox is not None and item.outbox_id is not None:
            self.outbox.settle([item.outbox_id])

    def _give_up(
        self, session_id: str, item: Queued, status: int | None, detail: str, *, final: bool
    ) -> None:
        """Stop sending ``item``: refused for good (``final``), or still failing at the retry
        deadline (an outbox keeps it for the next ``resume``)."""
        message = item.body
        logger.warning("hub did not record message %s: %s %s", message.get("id"), status, detail)
        self.failures.append(RecordFailure(session_id, message, status, detail))
        if final and self.outbox is not None and item.outbox_id is not None:
            self.outbox.settle([item.outbox_id])

    async def _deliver(self, session_id: str, item: Queued) -> None:
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


def _in(session_id: str | None) -> Any:
    """The lane of one session (``None``: every lane)."""
    if session_id is None:
        return None
    return lambda key: key == session_id
