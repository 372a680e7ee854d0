"""GB/Z 185.6 Annex B collaboration patterns, on top of :class:`~agenthub.Leader`.

* B.2 master-slave: :func:`fan_out` dispatches sub-tasks to partners, at once or one after
  another, and gathers every outcome (:class:`Gathered`), which :meth:`Gathered.fuse` joins.
* B.3 proxy negotiation: :func:`negotiate` offers a task to candidates in turn; one that hands
  it back is recorded as a decline and the next is asked (:class:`AllDeclined` when none
  takes it).
* B.4 task subscription is in :mod:`agenthub.triggers`.

Every sub-task and every offer is a task of its own (its own id) in the leader's session, by
``rpc``, so the hub's record shows each one, the declined ones included. The helpers never
answer a partner's question. A task they leave behind is canceled at its partner (best
effort), so no partner keeps working on it: one whose call failed (the partner may have
taken it before the answer was lost) and, when they ``complete`` the tasks, one that asks
for input or still works when the partner's rpc wait ends (its outcome says so: canceled,
with the question as its reason).

Errors: ``KitError`` → ``FanOutFailed`` (``fuse`` of a fan-out with failures),
``AllDeclined`` (every candidate handed the task back).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

import httpx

from agenthub.errors import KitError
from agenthub.leader import Leader

T = TypeVar("T")

Subtask = str | Callable[[Mapping[str, "Outcome"]], str]
"""A sub-task's text, or (one after another only) a function of the outcomes so far."""

REF_FLUSH_SECONDS = 10.0
"""How long a start that names other tasks waits for the session's records: the hub refuses
a reference to a task it has not recorded yet."""
SUCCEEDED = frozenset({"awaiting-completion", "completed"})
HANDED_BACK = frozenset({"rejected", "failed", "canceled"})
FINAL = frozenset({"completed", "failed", "canceled", "rejected"})
CALL_ERRORS = (KitError, httpx.HTTPError, ValueError, KeyError, TypeError)
"""What one partner's call may end in: refused, no answer, an answer that is no JSON
(``orjson.JSONDecodeError`` is a ``ValueError``) or no TaskResult."""


@dataclass(frozen=True)
class Outcome:
    """One sub-task or offer as it ended here: its task, its last state and answer.

    ``state`` is None when the call got no answer (``error`` says why); ``result`` is the
    partner's TaskResult with the products (the answer to ``start``).
    """

    partner_id: str
    task_id: str
    state: str | None
    result: dict[str, Any] | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.state in SUCCEEDED and self.error is None

    @property
    def handed_back(self) -> bool:
        """Annex B.3's rule: rejected, failed, or no answer at all; or left unfinished,
        and so canceled here."""
        return self.state is None or self.state in HANDED_BACK

    @property
    def text(self) -> str:
        """The text of the products, or else of the status (a reason, a question)."""
        result = self.result or {}
        items = [i for p in result.get("products") or [] for i in p.get("dataItems") or []]
        items = items or (result.get("status") or {}).get("dataItems") or []
        return "\n".join(i["text"] for i in items if i.get("type") == "text")

    @property
    def reason(self) -> str:
        """Why it did not succeed: the partner's words, or the failed call's."""
        return self.error or self.text or (self.state or "no answer")


class FanOutFailed(KitError):
    """``fuse`` was asked for every result, and some sub-tasks did not succeed."""

    def __init__(self, failed: Mapping[str, Outcome]) -> None:
        self.failed = dict(failed)
        why = "; ".join(f"{p}: {o.state or 'no answer'} ({o.reason})" for p, o in failed.items())
        super().__init__(f"{len(failed)} sub-task(s) did not succeed: {why}")


class Gathered(dict[str, Outcome]):
    """Outcomes by partner id, in the order the sub-tasks were given."""

    @property
    def succeeded(self) -> dict[str, Outcome]:
        return {p: o for p, o in self.items() if o.ok}

    @property
    def failed(self) -> dict[str, Outcome]:
        return {p: o for p, o in self.items() if not o.ok}

    @overload
    def fuse(self, combine: None = None, *, require_all: bool = True) -> str: ...
    @overload
    def fuse(
        self, combine: Callable[[Mapping[str, Outcome]], T], *, require_all: bool = True
    ) -> T: ...
    def fuse(
        self,
        combine: Callable[[Mapping[str, Outcome]], T] | None = None,
        *,
        require_all: bool = True,
    ) -> T | str:
        """The master's fusion step: ``combine`` over the succeeded outcomes (by default their
        texts, one a line); with ``require_all``, any failure is ``FanOutFailed`` instead."""
        if require_all and self.failed:
            raise FanOutFailed(self.failed)
        if combine is None:
            return "\n".join(o.text for o in self.succeeded.values())
        return combine(self.succeeded)


async def run_task(
    leader: Leader,
    partner_id: str,
    *,
    session_id: str,
    text: str,
    complete: bool = True,
    **refs: Any,
) -> Outcome:
    """Start one task by rpc and accept its result (``complete``); a failed call is an
    outcome too, so that one partner's trouble does not take the others' results away.
    The task is canceled at the partner when the call failed, and (``complete``) when it
    is left unfinished."""
    task_id = f"task-{uuid.uuid4().hex}"
    state: str | None = None
    answer: dict[str, Any] | None = None
    try:
        answer = await leader.start(
            partner_id, session_id=session_id, text=text, task_id=task_id, **refs
        )
        state = str(answer["status"]["state"])
        if complete and state == "awaiting-completion":
            done = await leader.complete(partner_id, session_id=session_id, task_id=task_id)
            state = str(done["status"]["state"])
        elif complete and state not in FINAL:  # a question, or still at work: not ours now
            state = await _cancel(leader, partner_id, session_id, task_id) or state
    except CALL_ERRORS as exc:
        await _cancel(leader, partner_id, session_id, task_id)
        return Outcome(partner_id, task_id, state, answer, error=f"{type(exc).__name__}: {exc}")
    return Outcome(partner_id, task_id, state, answer)


async def _cancel(leader: Leader, partner_id: str, session_id: str, task_id: str) -> str | None:
    """Cancel a task given up on, best effort: its state then, or None when the partner did
    not say (it may never have had the task)."""
    try:
        answer = await leader.cancel(partner_id, session_id=session_id, task_id=task_id)
        return str(answer["status"]["state"])
    except CALL_ERRORS:
        return None


async def _refs_recorded(leader: Leader, session_id: str) -> None:
    if leader.recorder is not None:
        await leader.recorder.flush(REF_FLUSH_SECONDS, session_id=session_id)


def _refs(parent_task_id: str | None, dependencies: list[str]) -> dict[str, Any]:
    refs: dict[str, Any] = {}
    if parent_task_id is not None:
        refs["parent_task_id"] = parent_task_id
    if dependencies:
        refs["dependencies"] = dependencies
    return refs


async def fan_out(
    leader: Leader,
    session_id: str,
    subtasks: Mapping[str, Subtask],
    *,
    concurrent: bool = True,
    parent_task_id: str | None = None,
    complete: bool = True,
) -> Gathered:
    """Annex B.2: one sub-task per partner, all at once (``concurrent``) or one after
    another, each recorded with ``parent_task_id``; in turn, a sub-task whose input is a
    function of the outcomes so far depends on (``dependencies``) the tasks it was given."""
    if concurrent and any(callable(i) for i in subtasks.values()):
        raise KitError("a sub-task that needs earlier outcomes runs one after another")
    if parent_task_id is not None:
        await _refs_recorded(leader, session_id)
    refs = _refs(parent_task_id, [])
    gathered = Gathered()
    if concurrent:
        runs = [
            run_task(leader, p, session_id=session_id, text=str(i), complete=complete, **refs)
            for p, i in subtasks.items()
        ]
        gathered.update(zip(subtasks, await asyncio.gather(*runs), strict=True))
        return gathered
    for partner_id, given in subtasks.items():
        more = refs
        if callable(given):
            given = given(gathered)
            more = _refs(parent_task_id, [o.task_id for o in gathered.values()])
            await _refs_recorded(leader, session_id)
        gathered[partner_id] = await run_task(
            leader, partner_id, session_id=session_id, text=given, complete=complete, **more
        )
    return gathered


class AllDeclined(KitError):
    """Every candidate handed the task back; ``declined`` says who and why."""

    def __init__(self, declined: Sequence[Outcome]) -> None:
        self.declined = list(declined)
        why = "; ".join(f"{o.partner_id}: {o.reason}" for o in declined)
        super().__init__(f"no candidate took the task ({why or 'no candidates'})")


@dataclass(frozen=True)
class Negotiation:
    """The candidate that took the task, and those that handed it back before it."""

    outcome: Outcome
    declined: list[Outcome]

    @property
    def partner_id(self) -> str:
        return self.outcome.partner_id


async def negotiate(
    leader: Leader,
    session_id: str,
    candidates: Sequence[str],
    text: str,
    *,
    parent_task_id: str | None = None,
    complete: bool = True,
) -> Negotiation:
    """Annex B.3: offer the task to each candidate in turn until one takes it.

    A candidate hands it back by answering ``rejected`` (it cannot do it), by failing it, or
    by not answering at all (the task is canceled there first, should it have taken it),
    or, with ``complete``, by leaving it unfinished (canceled); the next candidate then
    gets a new task with the same text.
    """
    declined: list[Outcome] = []
    if parent_task_id is not None:
        await _refs_recorded(leader, session_id)
    for partner_id in candidates:
        outcome = await run_task(
            leader,
            partner_id,
            session_id=session_id,
            text=text,
            complete=complete,
            **_refs(parent_task_id, []),
        )
        if not outcome.handed_back:
            return Negotiation(outcome, declined)
        declined.append(outcome)
    raise AllDeclined(declined)
