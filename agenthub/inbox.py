"""The leader's side of notification mode: results pushed to it, checked, deduplicated, kept."""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_REMEMBERED_IDS = 10_000


@dataclass
class Expectation:
    partner_id: str
    token: str | None


class NotificationInbox:
    def __init__(self) -> None:
        self._expected: dict[str, Expectation] = {}
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        self.results: dict[str, list[dict[str, Any]]] = {}
        self.duplicates = 0
        self._changed = asyncio.Condition()

    def expect(self, task_id: str, *, partner_id: str, token: str | None) -> None:
        """Accept pushes for ``task_id`` from ``partner_id`` showing ``token``."""
        self._expected[task_id] = Expectation(partner_id, token)

    def check(
        self, task_id: str, *, sender_id: str, token: str | None, token_only: bool = False
    ) -> str | None:
        """Why a push must be refused, or None if it may come in; ``token_only``: the token
        is the push's only proof (no certificate, no call token), so one must be expected."""
        expected = self._expected.get(task_id)
        if expected is None:
            return "no notifications were asked for this task"
        if expected.partner_id != sender_id:
            return "this agent does not execute the task"
        if token_only and expected.token is None:
            return "the push proves nothing: no certificate, call token or expected token"
        if expected.token is not None and not (
            token is not None and secrets.compare_digest(token, expected.token)
        ):
            return "the notification token does not match"
        return None

    async def receive(self, sender_id: str, event: dict[str, Any]) -> bool:
        """Keep ``event``; False if it was delivered before (a retry)."""
        key = (sender_id, str(event.get("id")))
        async with self._changed:
            if key in self._seen:
                self.duplicates += 1
                return False
            self._seen[key] = None
            while len(self._seen) > MAX_REMEMBERED_IDS:
                self._seen.popitem(last=False)
            self.results.setdefault(str(event.get("taskId")), []).append(event)
            self._changed.notify_all()
            return True

    async def wait(
        self, task_id: str, until: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """The first pushed result of the task for which ``until`` holds."""

        def found() -> dict[str, Any] | None:
            return next((e for e in self.results.get(task_id, []) if until(e)), None)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        result = found()
        assert result is not None
        return result
