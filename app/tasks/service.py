"""Tasks as their messages project them: creating a task, and moving it as the state table
allows (the fold itself is ``app.tasks.projection``, pure and order-free).

A task comes to exist from its leader's ``start``, or, point-to-point, from its partner's
first report (its leader is then the session's): whichever side's record reaches the hub
first. A message for a task that does not exist yet is kept and waits for it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import (
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatusUpdate,
)
from agenthub.protocol.tasks import is_final
from app.core.operator_events import task_summary
from app.core.unit_of_work import held_tasks, tell_operator
from app.models.types import utcnow
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
from app.tasks.models import Task
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
from app.tasks.store import (
    insert_task,
    load_task,
    mark_waiting,
    save_task,
    stored_task_messages,
    unmark,
)

_REPORTS = (TaskResult, TaskStatusUpdate, ProductChunk)

__all__ = ["NO_MOVE_COMMANDS", "AnyTaskMessage", "Outcome", "TaskMove", "apply_task_message"]


@dataclass(frozen=True)
class TaskMove:
    """What a task message did: its task, whether it went in now, and what that sets off."""

    task_id: str | None
    outcome: Outcome = Outcome.APPLIED
    partner_id: str | None = None  # the task's partner, once the task exists
    leader_id: str | None = None  # and its leader
    final: bool = False


def new_task_id() -> str:
    return f"task-{uuid.uuid4().hex}"


def partner_of(message: TaskCommand) -> str:
    if message.partner_id:
        return message.partner_id
    if isinstance(message.mentions, list) and len(message.mentions) == 1:
        return message.mentions[0]
    raise PartnerUnnamed("A start command names its partner in partnerId or mentions exactly one.")


async def _check_refs(
    db: AsyncSession, message: TaskCommand, session_id: str, task_id: str
) -> None:
    """A task descends from, and depends on, tasks of its own session only (a parent: one
    its leader leads or works on); any other id is answered as if it did not exist."""
    for ref in [message.parent_task_id, *(message.dependencies or [])]:
        if ref is None:
            continue
        found = None if ref == task_id else await db.get(Task, (ref, session_id))
        takes_part = found is not None and message.sender_id in (found.leader_id, found.partner_id)
        mine = found is not None and (ref != message.parent_task_id or takes_part)
        if found is None or not mine:
            raise UnknownTask(f"No task {ref!r} in this session to depend on or descend from.")


def _new_task(
    task_id: str, session_id: str, group_id: str | None, *, leader_id: str, partner_id: str
) -> Task:
    now = utcnow()
    return Task(
        id=task_id,
        session_id=session_id,
        group_id=group_id,
        leader_id=leader_id,
        partner_id=partner_id,
        created_at=now,
        updated_at=now,
    )


def _start_fields(task: Task, message: TaskCommand) -> None:
    task.parent_task_id = message.parent_task_id
    task.dependencies = list(message.dependencies or [])


def task_facts(task: Task | Any) -> TaskFacts:
    """What the task's row says, for the fold (``task``: a ``Task``, or a row held the same
    way, ``task_batch.HeldTask``)."""
    return TaskFacts(
        leader_id=task.leader_id,
        partner_id=task.partner_id,
        state=task_state(task),
        status=task.status,
        status_history=list(task.status_history),
        products=list(task.products),
        commanded=task.commanded,
    )


async def apply_task_message(
    db: AsyncSession,
    message: AnyTaskMessage,
    *,
    session_id: str,
    group_id: str | None,
    members: set[str],
    session_leader_id: str | None = None,
    self_partner: bool = False,
) -> TaskMove:
    """Move the task ``message`` concerns, or keep the message waiting for its move.

    ``session_leader_id`` (point-to-point): a partner's report of a task the hub has not seen
    creates it, led by the session's leader. ``self_partner`` (a bridge session): a start
    may name its sender as the partner. Raises 409s for a move that can never apply.
    """
    start = isinstance(message, TaskCommand) and message.command == TaskCommandType.START
    task_id = message.task_id or (new_task_id() if start else None)
    if task_id is None:
        if isinstance(message, TaskCommand):
            raise TaskIdMissing("A task command other than start names its taskId.")
        return TaskMove(None)
    if not isinstance(message, (TaskCommand, *_REPORTS)):
        _check_place(await db.get(Task, (task_id, session_id)), group_id)
        return TaskMove(task_id)  # plain talk about a task moves nothing
    task = await load_task(db, task_id, session_id)
    _check_place(task, group_id)
    if task is None:
        if isinstance(message, TaskCommand) and start:
            partner_id = partner_of(message)
            if partner_id == message.sender_id and not self_partner:
                raise SelfPartner("A leader cannot be the partner of its own task.")
            if partner_id not in members:
                raise PartnerNotHere(f"The partner {partner_id!r} does not take part here.")
            await _check_refs(db, message, session_id, task_id)
            task = _new_task(
                task_id, session_id, group_id, leader_id=message.sender_id, partner_id=partner_id
            )
            _start_fields(task, message)
        elif (
            isinstance(message, _REPORTS)
            and session_leader_id is not None
            and message.sender_id != session_leader_id
        ):
            task = _new_task(
                task_id,
                session_id,
                group_id,
                leader_id=session_leader_id,
                partner_id=message.sender_id,
            )
        else:
            return TaskMove(task_id, Outcome.NOT_YET)  # kept: it waits for its task
        await insert_task(db, task)
        held_tasks(db)[(task_id, session_id)] = task
        tell_operator(db, "task", task_summary(task, None))
        return await _refold(db, task, message)
    if isinstance(message, TaskCommand) and start:
        if (message.sender_id, partner_of(message)) != (task.leader_id, task.partner_id):
            raise TaskExists(f"Task {task_id!r} exists already in this session.")
        refs = message.parent_task_id is not None or bool(message.dependencies)
        if refs and task.parent_task_id is None and not task.dependencies:  # a report made it
            await _check_refs(db, message, session_id, task_id)
            await save_task(
                db,
                task,
                {
                    "parent_task_id": message.parent_task_id,
                    "dependencies": list(message.dependencies or []),
                },
            )
        return TaskMove(
            task_id, Outcome.SAME, task.partner_id, task.leader_id, is_final(task_state(task))
        )
    _check_role(task, message)
    key = sort_key(message)
    if task.last_key is not None and key < task.last_key:
        return await _refold(db, task, message)
    if task.pending:
        return await _fold_on(db, task, message)
    facts = task_facts(task)
    outcome = step(facts, message)
    if outcome is Outcome.NEVER:
        raise IllegalTaskMove(facts.why)
    values = _values(facts)  # what the step did, whatever came of the message (``fold``'s)
    values["last_key"] = key
    if outcome is Outcome.NOT_YET:
        values["pending"] = task.pending + 1
    await save_task(db, task, values)
    return TaskMove(task_id, outcome, task.partner_id, task.leader_id, is_final(facts.state))


def _check_place(task: Task | None, group_id: str | None) -> None:
    """A task is posted about where it lives: a group's in that group (under its rules of
    posting, seen by its members only), a point-to-point one outside every group."""
    if task is None or task.group_id == group_id:
        return
    where = f"group {task.group_id!r}" if task.group_id else "the session, outside its groups"
    raise TaskElsewhere(f"Task {task.id!r} lives in {where}: post about it there.")


def task_state(task: Task | Any) -> TaskState | None:
    return TaskState(task.state) if task.state else None


def _check_role(task: Task, message: AnyTaskMessage) -> None:
    if why := role_error(task.leader_id, task.partner_id, message):
        raise WrongTaskRole(why)


async def _refold(db: AsyncSession, task: Task, message: AnyTaskMessage) -> TaskMove:
    """Fold the task again from every message it has, this one included, and mark again
    the stored ones that wait."""
    stored = await stored_task_messages(db, task)
    stored.pop((message.sender_id, message.id), None)
    messages = [m for _, m in stored.values()]
    messages.append(message)
    facts, outcomes = fold(task.leader_id, task.partner_id, messages)
    outcome = outcomes[(message.sender_id, message.id)]
    if outcome is Outcome.NEVER:
        raise IllegalTaskMove(facts.why or "This move cannot apply to the task any more.")
    waits = [pk for key, (pk, _) in stored.items() if outcomes.get(key) is Outcome.NOT_YET]
    await mark_waiting(db, task, waits)
    values = _values(facts)
    values["last_key"] = max(sort_key(m) for m in messages)
    values["pending"] = sum(1 for o in outcomes.values() if o is Outcome.NOT_YET)
    await save_task(db, task, values)
    return TaskMove(task.id, outcome, task.partner_id, task.leader_id, is_final(facts.state))


async def _fold_on(db: AsyncSession, task: Task, message: AnyTaskMessage) -> TaskMove:
    """Fold in one message sent after all the task has, reading only those that wait
    (``app.tasks.projection.fold_on``); rows marked before the marks existed disagree with the
    task's count, and are folded again from all."""
    waiting = await stored_task_messages(db, task, waiting=True)
    if len(waiting) != task.pending:
        return await _refold(db, task, message)
    in_order = sorted((m for _, m in waiting.values()), key=sort_key)
    facts = task_facts(task)
    outcomes, still = fold_on(facts, in_order, message)
    outcome = outcomes[(message.sender_id, message.id)]
    if outcome is Outcome.NEVER:
        raise IllegalTaskMove(facts.why or "This move cannot apply to the task any more.")
    await unmark(db, [pk for key, (pk, _) in waiting.items() if key in outcomes])
    values = _values(facts)
    values["last_key"] = sort_key(message)
    values["pending"] = len(still)
    await save_task(db, task, values)
    return TaskMove(task.id, outcome, task.partner_id, task.leader_id, is_final(facts.state))


def _values(facts: TaskFacts) -> dict[str, Any]:
    return {
        "state": facts.state.value if facts.state else None,
        "status": facts.status,
        "status_history": facts.status_history,
        "products": facts.products,
        "commanded": facts.commanded,
    }
