"""Posting an agent's own messages to the hub, in order, retried until the hub has them.

The hub is never on the call path: a briefly unreachable hub delays the record, it does not
lose it. A retry sends the same message id, so the hub stores it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

from agenthub.errors import HubRequestError
from agenthub.hub import HubClient
from agenthub.paths import segment

logger = logging.getLogger(__name__)

RETRY_DEADLINE_SECONDS = 120.0
FIRST_BACKOFF_SECONDS = 0.05
MAX_BACKOFF_SECONDS = 5.0
# records a session may have waiting for the hub before its callers wait too
MAX_BACKLOG = 256
# transient: the hub (or the way to it) is busy or away. A 409 is final (the hub keeps a
# move that is not allowed yet and applies it later, 202), except the task that kept moving
RETRYABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
RETRYABLE_PROBLEMS = frozenset({"task-busy"})


_Key = tuple[str, Any]  # (session id, task id or None)
_Item = tuple[str, Mapping[str, Any]]  # (the session route it goes to, its body)


@dataclass
class RecordFailure:
    session_id: str
    message: Mapping[str, Any]
    status: int | None
    detail: str


MAX_BATCH_ITEMS = 50
MAX_BATCH_BYTES = 256 << 10


def _head_batch(queue: deque[_Item]) -> list[_Item]:
    """The head of the queue, with the messages after it that go with it in one batch
    request (a head that is no message, a relayed answer, goes alone)."""
    batch: list[_Item] = []
    size = 0
    for item in itertools.islice(queue, MAX_BATCH_ITEMS):
        route, message = item
        if route != "messages":
            return batch or [item]
        size += len(orjson.dumps(dict(message)))
        if batch and size > MAX_BATCH_BYTES:
            break
        batch.append(item)
    return batch


def _transient(status: int | None, problem: Any) -> bool:
    """Whether a refusal may go away by itself: by its status, or its problem's code (the
    last segment of its ``type``)."""
    kind = problem.get("type", "") if isinstance(problem, dict) else ""
    return status in RETRYABLE_STATUSES or str(kind).rsplit("/", 1)[-1] in RETRYABLE_PROBLEMS


def _problem_of(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class HubRecorder:
    def __init__(
        self,
        hub: HubClient,
        *,
        retry_deadline_seconds: float = RETRY_DEADLINE_SECONDS,
        max_backlog: int = MAX_BACKLOG,
    ) -> None:
        self.hub = hub
        self.retry_deadline = retry_deadline_seconds
        self.max_backlog = max_backlog
        self.failures: list[RecordFailure] = []
        self.recorded = 0
        # one ordered queue per task (and one for a session's task-less messages): a task's
        # records reach the hub in order, while different tasks' records travel side by side
        self._queues: dict[_Key, deque[_Item]] = {}
        self._workers: dict[_Key, asyncio.Task[None]] = {}
        self._settled = asyncio.Event()

    def record(self, session_id: str, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for the session's history; returns at once."""
        self._queue((session_id, message.get("taskId")), ("messages", message))

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
        self._queue((session_id, task_id), ("answers", body))

    def _queue(self, key: _Key, item: _Item) -> None:
        self._queues.setdefault(key, deque()).append(item)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(
                self._run(key), name=f"agenthub-recorder-{key[0]}"
            )

    async def admit(self, session_id: str, timeout: float | None = None) -> None:
        """Return at once while the session's backlog is under ``max_backlog``.

        Past it, wait (up to ``timeout``) for the backlog to drain to half of it (a low-water
        mark: callers go on while the rest drains, instead of all waiting for an empty queue
        and then filling it at once), so a hub that falls behind sets the callers' pace
        instead of the queue growing without bound.
        """
        if self._backlog(session_id) >= self.max_backlog:
            await self._drain(timeout, session_id=session_id, to=self.max_backlog // 2)

    def _backlog(self, session_id: str | None) -> int:
        """Records queued or being sent (a record leaves its queue once it is settled)."""
        return sum(len(q) for (s, _), q in self._queues.items() if session_id in (None, s))

    async def flush(self, timeout: float | None = None, *, session_id: str | None = None) -> bool:
        """Wait until what was queued (for one session, or all) reached the hub or gave up.

        False if ``timeout`` passed first; the records keep being retried in the background.
        """
        return await self._drain(timeout, session_id=session_id, to=0)

    async def _drain(self, timeout: float | None, *, session_id: str | None, to: int) -> bool:
        """Wait until at most ``to`` records are left (for one session, or all)."""
        try:
            async with asyncio.timeout(timeout):
                while self._backlog(session_id) > to:
                    self._settled.clear()
                    await self._settled.wait()
        except TimeoutError:
            return False
        return True

    async def aclose(self, timeout: float = 5.0) -> None:
        await self.flush(timeout)
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _run(self, key: _Key) -> None:
        session_id, queue = key[0], self._queues[key]
        try:
            while queue:
                batch = _head_batch(queue)
                try:
                    if len(batch) > 1:
                        await self._deliver_batch(session_id, batch)
                    else:
                        await self._deliver(session_id, batch[0])
                finally:
                    for _ in batch:
                        queue.popleft()
                    self._settled.set()
        finally:  # no await from the last check to here: a record queued meanwhile is seen
            del self._workers[key]
            if not queue:  # else cancelled with records left: they stay counted
                del self._queues[key]

    async def _deliver_batch(self, session_id: str, batch: list[_Item]) -> None:
        """Post queued messages in one request (``…/messages:batch``); an item the hub could
        not take yet, or a batch that did not get through, goes again one by one (the hub
        folds a task's records in the order they were sent, whatever order they come in)."""
        path = f"/v1/sessions/{segment(session_id)}/messages:batch"
        try:
            response = await self.hub.request(
                "POST", path, json={"items": [dict(message) for _, message in batch]}
            )
            outcomes = response.json()["items"] if response.status_code == 200 else None
        except (httpx.TransportError, HubRequestError, ValueError, KeyError, TypeError):
            outcomes = None
        if not isinstance(outcomes, list) or len(outcomes) != len(batch):
            for item in batch:
                await self._deliver(session_id, item)
            return
        for item, outcome in zip(batch, outcomes, strict=True):
            outcome = outcome if isinstance(outcome, dict) else {}
            status, problem = outcome.get("status"), outcome.get("problem")
            if isinstance(status, int) and status < 300:
                self.recorded += 1
            elif _transient(status, problem):
                await self._deliver(session_id, item)
            else:
                self._give_up(session_id, item[1], status, str(problem)[:500])

    def _give_up(
        self, session_id: str, message: Mapping[str, Any], status: int | None, detail: str
    ) -> None:
        logger.warning("hub did not record message %s: %s %s", message.get("id"), status, detail)
        self.failures.append(RecordFailure(session_id, message, status, detail))

    async def _deliver(self, session_id: str, item: _Item) -> None:
        route, message = item
        deadline = time.monotonic() + self.retry_deadline
        backoff = FIRST_BACKOFF_SECONDS
        path = f"/v1/sessions/{segment(session_id)}/{route}"
        while True:
            status: int | None = None
            detail = ""
            try:
                response = await self.hub.request("POST", path, json=dict(message))
                status = response.status_code
                if status < 300:
                    self.recorded += 1
                    return
                detail = response.text[:500]
                retryable = _transient(status, _problem_of(response))
            except (httpx.TransportError, HubRequestError) as exc:
                detail = str(exc)
                status = getattr(exc, "status", None)
                retryable = status is None or status in RETRYABLE_STATUSES
            if not retryable or time.monotonic() + backoff > deadline:
                self._give_up(session_id, message, status, detail)
                return
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
