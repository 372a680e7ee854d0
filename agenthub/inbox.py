"""The leader's side of notification mode: results pushed to it, checked, deduplicated, kept.

Task ids are the leaders' choice and unique within a session only, so an expectation is of
a (session, task, partner): two sessions' tasks of one id, at two partners, each take their
own partner's pushes, and their results do not mix. What a remote partner can make the
inbox hold is bounded: the newest ``MAX_RESULTS_PER_TASK`` pushes of each expected task; a
task's expectation ends with its final state (its token then opens nothing), and only the
last ``MAX_FINISHED_TASKS`` finished tasks keep their pushes for :meth:`wait`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agenthub.errors import KitError
from agenthub.protocol.tasks import FINAL_STATES

MAX_REMEMBERED_IDS = 10_000
MAX_RESULTS_PER_TASK = 32
"""Pushes kept per task, the newest: a partner that pushes without end holds no more."""
MAX_EXPECTED_TASKS = 10_000
"""Tasks awaiting pushes; past it the oldest expectation (and its pushes) is dropped."""
MAX_FINISHED_TASKS = 1_000
"""Finished tasks whose pushes stay readable; past it the oldest finished go."""

_FINAL = frozenset(s.value for s in FINAL_STATES)

Key = tuple[str | None, str, str]
"""(session, task, partner): what one expectation is of."""


@dataclass
class Expectation:
    partner_id: str
    token: str | None
    session_id: str | None = None


def _same_token(given: str | None, expected: str) -> bool:
    """A header is decoded as latin-1 (Starlette), so it is bytes again that way:
    ``compare_digest`` on text takes ASCII only, and a stranger's é was a 500."""
    if given is None:
        return False
    try:
        return secrets.compare_digest(given.encode("latin-1"), expected.encode())
    except UnicodeEncodeError:
        return False


class NotificationInbox:
    def __init__(self) -> None:
        self._expected: OrderedDict[Key, Expectation] = OrderedDict()
        self._by_task: dict[str, set[Key]] = {}  # a push's task id -> its expectations
        self._results: dict[Key, deque[dict[str, Any]]] = {}
        self._finished: OrderedDict[Key, None] = OrderedDict()
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        self.duplicates = 0
        self.unmatched = 0  # pushes that passed ``check`` but fit none of the sender's tasks
        self._changed = asyncio.Condition()

    def expect(
        self, task_id: str, *, partner_id: str, token: str | None, session_id: str | None = None
    ) -> None:
        """Accept pushes for ``task_id`` (of ``session_id``) from ``partner_id`` showing
        ``token``, until the task is final."""
        key = (session_id, task_id, partner_id)
        self._expected[key] = Expectation(partner_id, token, session_id)
        self._expected.move_to_end(key)
        self._by_task.setdefault(task_id, set()).add(key)
        self._finished.pop(key, None)
        while len(self._expected) > MAX_EXPECTED_TASKS:
            oldest, _ = self._expected.popitem(last=False)
            self._unindex(oldest)
            self._results.pop(oldest, None)

    def expectation(
        self, task_id: str, *, session_id: str | None = None, partner_id: str | None = None
    ) -> Expectation | None:
        """The expectation of ``task_id`` that matches the arguments given, if one does."""
        found = [
            self._expected[k]
            for k in self._by_task.get(task_id, ())
            if (session_id is None or k[0] == session_id)
            and (partner_id is None or k[2] == partner_id)
        ]
        return found[0] if len(found) == 1 else None

    def _unindex(self, key: Key) -> None:
        keys = self._by_task.get(key[1])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_task[key[1]]

    def check(
        self,
        task_id: str,
        *,
        sender_id: str,
        token: str | None,
        token_only: bool = False,
        session_id: str | None = None,
    ) -> str | None:
        """Why a push must be refused, or None if it may come in; ``token_only``: the token
        is the push's only proof (no certificate, no call token), so one must be expected.
        Without ``session_id``, any of the sender's expectations of ``task_id`` will do; an
        expectation set without a session takes a push of any."""
        keys = [
            k
            for k in self._by_task.get(task_id, ())
            if session_id is None or k[0] in (None, session_id)
        ]
        if not keys:
            return "no notifications were asked for this task"
        theirs = [self._expected[k] for k in keys if k[2] == sender_id]
        if not theirs:
            return "this agent does not execute the task"
        reasons = [_refusal(e, token, token_only) for e in theirs]
        return None if None in reasons else reasons[0]

    def _key_of(self, sender_id: str, event: dict[str, Any]) -> Key | None:
        """The expectation a checked push is for: of its session, or the sender's only one
        of that task."""
        task_id, session = str(event.get("taskId")), event.get("sessionId")
        key = (session if isinstance(session, str) else None, task_id, sender_id)
        if key in self._expected:
            return key
        theirs = [k for k in self._by_task.get(task_id, ()) if k[2] == sender_id]
        return theirs[0] if len(theirs) == 1 else None

    async def receive(self, sender_id: str, event: dict[str, Any]) -> bool:
        """Keep ``event``; False if it was delivered before (a retry), or fits no task."""
        async with self._changed:
            seen = (sender_id, str(event.get("id")))
            if seen in self._seen:
                self.duplicates += 1
                return False
            key = self._key_of(sender_id, event)
            if key is None:
                self.unmatched += 1
                return False
            self._seen[seen] = None
            while len(self._seen) > MAX_REMEMBERED_IDS:
                self._seen.popitem(last=False)
            kept = self._results.setdefault(key, deque(maxlen=MAX_RESULTS_PER_TASK))
            kept.append(event)
            status = event.get("status")
            if isinstance(status, dict) and status.get("state") in _FINAL:
                self._finish(key)
            self._changed.notify_all()
            return True

    def _finish(self, key: Key) -> None:
        """The task is over: its token opens nothing more; its pushes stay a while."""
        del self._expected[key]
        self._unindex(key)
        self._finished[key] = None
        while len(self._finished) > MAX_FINISHED_TASKS:
            oldest, _ = self._finished.popitem(last=False)
            self._results.pop(oldest, None)

    def results_of(self, task_id: str, *, session_id: str | None = None) -> list[dict[str, Any]]:
        """The pushes kept for the task, oldest first; ``session_id`` may be left out while
        the inbox knows that task id in one session only (else ``KitError``)."""
        keys = [k for k in self._results if k[1] == task_id and session_id in (None, k[0])]
        if session_id is None and len({k[0] for k in keys}) > 1:
            raise KitError(f"task {task_id} is in more than one session: name the session")
        return [event for k in keys for event in self._results[k]]

    async def wait(
        self,
        task_id: str,
        until: Callable[[dict[str, Any]], bool],
        timeout: float = 30.0,
        *,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        """The first pushed result of the task for which ``until`` holds."""

        def found() -> dict[str, Any] | None:
            return next(
                (e for e in self.results_of(task_id, session_id=session_id) if until(e)), None
            )

        async with self._changed:
            async with asyncio.timeout(timeout):  # not wait_for: 3.11's loses cancels
                await self._changed.wait_for(lambda: found() is not None)
        result = found()
        assert result is not None
        return result


def _refusal(expected: Expectation, token: str | None, token_only: bool) -> str | None:
    if token_only and expected.token is None:
        return "the push proves nothing: no certificate, call token or expected token"
    if expected.token is not None and not _same_token(token, expected.token):
        return "the notification token does not match"
    return None
