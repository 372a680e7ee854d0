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
        self, hub: HubClient, *, retry_deadline_seconds: float = RETRY_DEADLINE_SECONDS
    ) -> None:
        self.hub = hub
        self.retry_deadline = retry_deadline_seconds
        self.failures: list[RecordFailure] = []
        self.recorded = 0
        self._queue: asyncio.Queue[tuple[str, Mapping[str, Any]]] | None = None
        self._worker: asyncio.Task[None] | None = None

    def record(self, session_id: str, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for the session's history; returns at once."""
        if self._queue is None:
            self._queue = asyncio.Queue()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._run(), name="agenthub-recorder")
        self._queue.put_nowait((session_id, message))

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued reached the hub (or gave up); False on timeout."""
        if self._queue is None:
            return True
        try:
            await asyncio.wait_for(self._queue.join(), timeout)
        except TimeoutError:
            return False
        return True

    async def aclose(self, timeout: float = 5.0) -> None:
        await self.flush(timeout)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            session_id, message = await self._queue.get()
            try:
                await self._deliver(session_id, message)
            finally:
                self._queue.task_done()

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
