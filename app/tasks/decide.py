"""The task rule, decided once: what a task message does to its task, from the task as held
and the place the message is posted to, reading nothing and writing nothing.

``decide`` answers with one of three things:

- a refusal, the ``HubError`` the route documents (a start naming no partner, or itself, or
  one who does not take part here; a second start with another partner; a command from
  other than the task's leader, a report from other than its partner; a task of another
  place; a move that can never apply; a parent or dependency that is not the session's);
- ``Needs``: what to read before it can say (the task's stored messages, when the message
  sorts before what the task has, when some of the task's messages wait, or when it makes
  the task; the tasks a start names as its parent and dependencies); the caller reads them,
  in one query each, and asks again with them;
- a ``TaskMove``: the outcome, the task it makes, the values its row takes, which of its
  stored messages wait from now on, whether it may have ended, whose inbox gets a copy.

The fold itself is ``app.tasks.projection``; the full path (``tasks.service``) and the record
engine's in-memory path (``records.task_batch``) both ask here and apply what they are told.

Kept whole: the rule and the values it answers with read top to bottom in one place, so
that a check of a task message is written, and found, once.
"""

from __future__ import annotations

import enum
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from agenthub.protocol.messages import (
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatusUpdate,
)
from agenthub.protocol.tasks import is_final
from app.errors import HubError
from app.tasks.errors import (
    IllegalTaskMove,
    PartnerNotHere,
    PartnerUnnamed,
    SelfPartner,
    TaskElsewhere,
    TaskExists,
    TaskIdMissing,
    UnknownTask,
    WrongTaskRole,
)
from app.tasks.projection import (
    NO_MOVE_COMMANDS,
    AnyTaskMessage,
    Outcome,
    TaskFacts,
    fold,
    fold_on,
    role_error,
    sort_key,
    step,
)

MessageKey = tuple[str, str]  # (sender, id): how a fold tells a task's messages apart
_REPORTS = (TaskResult, TaskStatusUpdate, ProductChunk)
_MOVES = (TaskCommand, *_REPORTS)  # the messages that move a task


class TaskRow(Protocol):
    """A task as its caller holds it: a ``Task`` row, or the in-memory path's copy."""

    @property
    def id(self) -> str: ...
    @property
    def group_id(self) -> str | None: ...
    @property
    def parent_task_id(self) -> str | None: ...
    @property
    def dependencies(self) -> list[str]: ...
    @property
    def leader_id(self) -> str: ...
    @property
    def partner_id(self) -> str: ...
    @property
    def state(self) -> str | None: ...
    @property
    def status(self) -> dict[str, Any] | None: ...
    @property
    def status_history(self) -> list[dict[str, Any]]: ...
    @property
    def products(self) -> list[dict[str, Any]]: ...
    @property
    def commanded(self) -> bool: ...
    @property
    def last_key(self) -> str | None: ...
    @property
    def pending(self) -> int: ...


@dataclass(frozen=True)
class TaskPlace:
    """Where a task message is posted, as far as its task's rule cares."""

    session_id: str
    group_id: str | None  # None: the session's point-to-point part
    partners: Container[str]  # who may be the partner of a task started here
    leader_id: str | None = None  # point to point: a partner's report makes a task it leads
    self_partner: bool = False  # a bridge session: a start may name its sender as partner


class Read(enum.Enum):
    ALL = "all"  # every stored message of the task
    WAITING = "waiting"  # those marked waiting


@dataclass(frozen=True)
class Needs:
    """What the caller reads before asking again."""

    stored: Read | None = None  # the task's stored messages
    refs: tuple[str, ...] = ()  # the tasks a start names as parent or dependencies


@dataclass(frozen=True)
class Stored:
    """A task's stored messages by (sender, id), as ``Needs`` asked (``waiting``: only the
    ones marked waiting)."""

    messages: Mapping[MessageKey, AnyTaskMessage]
    waiting: bool = False


NOTHING_STORED = Stored({})
"""For a task the caller knows no message of is stored."""

Refs = Mapping[str, tuple[str, str]]  # a task named as parent or dependency → its leader, partner


@dataclass(frozen=True)
class NewTask:
    """The task a message makes."""

    leader_id: str
    partner_id: str
    parent_task_id: str | None = None
    dependencies: list[str] = field(default_factory=list)


class TaskMove(NamedTuple):
    """What a task message does: its task, whether it went in now, and what that sets off.
    (A tuple: one is made for every task record, and a tuple is made fastest.)"""

    task_id: str | None
    outcome: Outcome = Outcome.APPLIED
    partner_id: str | None = None  # the task's partner, once the task exists
    leader_id: str | None = None  # and its leader
    final: bool = False  # the task is final: its triggers may fire
    new: NewTask | None = None  # the task this message makes (its row is written first)
    values: Mapping[str, Any] = MappingProxyType({})  # the task's row takes these
    waits: tuple[MessageKey, ...] | None = None  # the stored messages that wait, exactly
    unwaits: tuple[MessageKey, ...] = ()  # stored messages that wait no more
    inbox: str | None = None  # the partner whose inbox gets a copy of the command


def decide(
    task: TaskRow | None,
    message: AnyTaskMessage,
    place: TaskPlace,
    *,
    task_id: str | None,
    stored: Stored | None = None,
    refs: Refs | None = None,
) -> HubError | Needs | TaskMove:
    """What ``message`` does to ``task`` (``None``: the place has no task ``task_id``; a start
    naming none comes with an id made for it), given what an earlier ``Needs`` asked for."""
    if task_id is None:
        if isinstance(message, TaskCommand):
            return TaskIdMissing("A task command other than start names its taskId.")
        return TaskMove(None)
    if task is not None and task.group_id != place.group_id:
        where = f"group {task.group_id!r}" if task.group_id else "the session, outside its groups"
        return TaskElsewhere(f"Task {task.id!r} lives in {where}: post about it there.")
    if not isinstance(message, _MOVES):
        return TaskMove(task_id)  # plain talk about a task moves nothing
    if task is None:
        return _first(message, place, task_id, stored, refs)
    if isinstance(message, TaskCommand) and message.command == TaskCommandType.START:
        return _again(task, message, task_id, refs)
    if why := role_error(task.leader_id, task.partner_id, message):
        return WrongTaskRole(why)
    key = sort_key(message)
    behind = task.last_key is not None and key < task.last_key
    if not behind and not task.pending:
        return _step(task, message, task_id, key)
    if stored is not None and not stored.waiting:
        return _refold(task.leader_id, task.partner_id, message, task_id, stored)
    if behind or (stored is not None and len(stored.messages) != task.pending):
        return Needs(Read.ALL)  # rows marked before the marks existed disagree with the count
    if stored is None:
        return Needs(Read.WAITING)
    return _fold_on(task, message, task_id, stored)


def named_partner(message: TaskCommand) -> str | None:
    """The partner a start names: in ``partnerId``, or its one mention."""
    if message.partner_id:
        return message.partner_id
    if isinstance(message.mentions, list) and len(message.mentions) == 1:
        return message.mentions[0]
    return None


def _unnamed() -> PartnerUnnamed:
    return PartnerUnnamed("A start command names its partner in partnerId or mentions exactly one.")


def _first(
    message: AnyTaskMessage,
    place: TaskPlace,
    task_id: str,
    stored: Stored | None,
    refs: Refs | None,
) -> HubError | Needs | TaskMove:
    """A message for a task the place does not have: a start (or, point to point, a
    partner's report) makes it; anything else waits for it."""
    if isinstance(message, TaskCommand) and message.command == TaskCommandType.START:
        partner_id = named_partner(message)
        if partner_id is None:
            return _unnamed()
        if partner_id == message.sender_id and not place.self_partner:
            return SelfPartner("A leader cannot be the partner of its own task.")
        if partner_id not in place.partners:
            return PartnerNotHere(f"The partner {partner_id!r} does not take part here.")
        if refused := _check_refs(message, task_id, refs):
            return refused
        new = NewTask(
            message.sender_id,
            partner_id,
            message.parent_task_id,
            list(message.dependencies or []),
        )
    elif (
        isinstance(message, _REPORTS)
        and place.leader_id is not None
        and message.sender_id != place.leader_id
    ):
        new = NewTask(place.leader_id, message.sender_id)
    else:
        return TaskMove(task_id, Outcome.NOT_YET)  # kept: it waits for its task
    if stored is None or stored.waiting:
        return Needs(Read.ALL)  # what waited for the task folds in with this message
    return _refold(new.leader_id, new.partner_id, message, task_id, stored, new)


def _check_refs(message: TaskCommand, task_id: str, refs: Refs | None) -> HubError | Needs | None:
    """A task descends from, and depends on, tasks of its own session only (a parent: one
    its leader leads or works on); any other id is answered as if it did not exist."""
    named = [r for r in [message.parent_task_id, *(message.dependencies or [])] if r is not None]
    if refs is None and any(r != task_id for r in named):
        return Needs(refs=tuple(dict.fromkeys(r for r in named if r != task_id)))
    for ref in named:
        found = None if ref == task_id or refs is None else refs.get(ref)
        takes_part = found is not None and message.sender_id in found
        mine = found is not None and (ref != message.parent_task_id or takes_part)
        if not mine:
            return UnknownTask(f"No task {ref!r} in this session to depend on or descend from.")
    return None


def _again(
    task: TaskRow, message: TaskCommand, task_id: str, refs: Refs | None
) -> HubError | Needs | TaskMove:
    """A start of a task that exists: the same move, if it is its leader's to its partner (the
    partner's report made the task first); the parent and dependencies it names are kept if
    the task has none."""
    partner_id = named_partner(message)
    if partner_id is None:
        return _unnamed()
    if (message.sender_id, partner_id) != (task.leader_id, task.partner_id):
        return TaskExists(f"Task {task_id!r} exists already in this session.")
    values: dict[str, Any] = {}
    named = message.parent_task_id is not None or bool(message.dependencies)
    if named and task.parent_task_id is None and not task.dependencies:  # a report made it
        if refused := _check_refs(message, task_id, refs):
            return refused
        values = {
            "parent_task_id": message.parent_task_id,
            "dependencies": list(message.dependencies or []),
        }
    final = is_final(_state(task))
    return _move(task.leader_id, task.partner_id, message, task_id, Outcome.SAME, final, values)


def _step(task: TaskRow, message: AnyTaskMessage, task_id: str, key: str) -> HubError | TaskMove:
    """The usual case: the message (sorting by ``key``) comes after all the task has, and
    nothing of it waits."""
    facts = _facts(task)
    outcome = step(facts, message)
    if outcome is Outcome.NEVER:
        return IllegalTaskMove(facts.why)
    # what the step did, whatever came of the message: a result that waits may have applied
    # the moves of its statusHistory first (``fold`` keeps them too)
    values = _values(facts)
    values["last_key"] = key
    if outcome is Outcome.NOT_YET:
        values["pending"] = task.pending + 1
    final = is_final(facts.state)
    return _move(task.leader_id, task.partner_id, message, task_id, outcome, final, values)


def _refold(
    leader_id: str,
    partner_id: str,
    message: AnyTaskMessage,
    task_id: str,
    stored: Stored,
    new: NewTask | None = None,
) -> HubError | TaskMove:
    """Fold the task (``new``: the one this message makes) again from every message it has,
    this one included; the stored ones that wait are marked again."""
    this = (message.sender_id, message.id)
    others = {key: m for key, m in stored.messages.items() if key != this}
    if others:
        messages = [*others.values(), message]
        facts, outcomes = fold(leader_id, partner_id, messages)
        last_key = max(sort_key(m) for m in messages)
    else:  # the fold of one message is its step, from nothing
        facts = TaskFacts(leader_id, partner_id)
        outcomes = {this: step(facts, message)}
        last_key = sort_key(message)
    outcome = outcomes[this]
    if outcome is Outcome.NEVER:
        return IllegalTaskMove(facts.why or "This move cannot apply to the task any more.")
    values = _values(facts)
    values["last_key"] = last_key
    values["pending"] = sum(1 for o in outcomes.values() if o is Outcome.NOT_YET)
    waits = tuple(key for key in others if outcomes.get(key) is Outcome.NOT_YET)
    final = is_final(facts.state)
    return _move(
        leader_id, partner_id, message, task_id, outcome, final, values, new=new, waits=waits
    )


def _fold_on(
    task: TaskRow, message: AnyTaskMessage, task_id: str, waiting: Stored
) -> HubError | TaskMove:
    """Fold in one message sent after all the task has, from only those that wait
    (``projection.fold_on``)."""
    in_order = sorted(waiting.messages.values(), key=sort_key)
    facts = _facts(task)
    outcomes, still = fold_on(facts, in_order, message)
    outcome = outcomes[(message.sender_id, message.id)]
    if outcome is Outcome.NEVER:
        return IllegalTaskMove(facts.why or "This move cannot apply to the task any more.")
    values = _values(facts)
    values["last_key"] = sort_key(message)
    values["pending"] = len(still)
    unwaits = tuple(key for key in waiting.messages if key in outcomes)
    final = is_final(facts.state)
    return _move(
        task.leader_id, task.partner_id, message, task_id, outcome, final, values, unwaits=unwaits
    )


def _move(
    leader_id: str,
    partner_id: str,
    message: AnyTaskMessage,
    task_id: str,
    outcome: Outcome,
    final: bool,
    values: dict[str, Any],
    new: NewTask | None = None,
    waits: tuple[MessageKey, ...] | None = None,
    unwaits: tuple[MessageKey, ...] = (),
) -> TaskMove:
    """The move, with the copy of a leader's command its partner gets (none for ``get`` and
    ``re-stream``, nor for a bridge's record of its caller's command)."""
    moves = isinstance(message, TaskCommand) and message.command not in NO_MOVE_COMMANDS
    inbox = partner_id if moves and partner_id != message.sender_id else None
    return TaskMove(
        task_id, outcome, partner_id, leader_id, final, new, values, waits, unwaits, inbox
    )


def _state(task: TaskRow) -> TaskState | None:
    return TaskState(task.state) if task.state else None


def _facts(task: TaskRow) -> TaskFacts:
    """What the task's row says, for the fold."""
    return TaskFacts(
        leader_id=task.leader_id,
        partner_id=task.partner_id,
        state=_state(task),
        status=task.status,
        status_history=list(task.status_history),
        products=list(task.products),
        commanded=task.commanded,
    )


def _values(facts: TaskFacts) -> dict[str, Any]:
    return {
        "state": facts.state.value if facts.state else None,
        "status": facts.status,
        "status_history": facts.status_history,
        "products": facts.products,
        "commanded": facts.commanded,
    }
