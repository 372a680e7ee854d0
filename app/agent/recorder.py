"""Posting an agent's own messages to the hub, in order, retried until the hub has them.

The hub is never on the call path: a briefly unreachable hub delays the record, it does not
lose it. A retry sends the same message id, so the hub stores it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from app.agent.errors import HubRequestError
from app.agent.hub import HubClient

logger = logging.getLogger(__name__)

RETRY_DEADLINE_SECONDS = 120.0
FIRST_BACKOFF_SECONDS = 0.05
MAX_BACKOFF_SECONDS = 5.0
# records a session may have waiting for the hub before its callers wait too
MAX_BACKLOG = 256
# 409: the other side's record may simply not have arrived yet (e.g. the leader's start)
RETRYABLE_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


@dataclass
class RecordFailure:
    session_id: str
    message: Mapping[str, Any]
    status: int | None
    detail: str


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
        # one ordered queue per session: a record stuck in one session holds up no other
        self._queues: dict[str, asyncio.Queue[Mapping[str, Any]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._pending: dict[str, int] = {}  # queued or being sent, per session

    def record(self, session_id: str, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for the session's history; returns at once."""
        queue = self._queues.setdefault(session_id, asyncio.Queue())
        worker = self._workers.get(session_id)
        if worker is None or worker.done():
            self._workers[session_id] = asyncio.create_task(
                self._run(session_id, queue), name=f"agenthub-recorder-{session_id}"
            )
        queue.put_nowait(message)
        self._pending[session_id] = self._pending.get(session_id, 0) + 1

    async def admit(self, session_id: str, timeout: float | None = None) -> None:
        """Return at once while the session's backlog is under ``max_backlog``.

        Past it, wait (up to ``timeout``) for the backlog to drain, so a hub that falls
        behind sets the callers' pace instead of the queue growing without bound.
        """
        if self._pending.get(session_id, 0) >= self.max_backlog:
            await self.flush(timeout, session_id=session_id)

    async def flush(self, timeout: float | None = None, *, session_id: str | None = None) -> bool:
        """Wait until what was queued (for one session, or all) reached the hub or gave up.

        False if ``timeout`` passed first; the records keep being retried in the background.
        """
        queues = [q for s, q in self._queues.items() if session_id in (None, s)]
        try:
            await asyncio.wait_for(asyncio.gather(*(q.join() for q in queues)), timeout)
        except TimeoutError:
            return False
        return True

    async def aclose(self, timeout: float = 5.0) -> None:
        await self.flush(timeout)
        for worker in self._workers.values():
            worker.cancel()
        for worker in self._workers.values():
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _run(self, session_id: str, queue: asyncio.Queue[Mapping[str, Any]]) -> None:
        while True:
            message = await queue.get()
            try:
                await self._deliver(session_id, message)
            finally:
                self._pending[session_id] -= 1
                queue.task_done()

    async def _deliver(self, session_id: str, message: Mapping[str, Any]) -> None:
        deadline = time.monotonic() + self.retry_deadline
        backoff = FIRST_BACKOFF_SECONDS
        path = f"/v1/sessions/{session_id}/messages"
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
            except (httpx.TransportError, HubRequestError) as exc:
                detail = str(exc)
                status = getattr(exc, "status", None)
            retryable = status is None or status in RETRYABLE_STATUSES
            if not retryable or time.monotonic() + backoff > deadline:
                logger.warning(
                    "hub did not record message %s: %s %s", message.get("id"), status, detail
                )
                self.failures.append(RecordFailure(session_id, message, status, detail))
                return
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
