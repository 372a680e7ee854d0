"""Tasks as their messages project them: creating a task, and moving it as the state table
allows, one message at a time (the rule is ``app.tasks.decide``, pure; its fold
``app.tasks.projection``, order-free; this module reads what the rule asks for and writes what
it decides).

A task comes to exist from its leader's ``start``, or, point-to-point, from its partner's
first report (its leader is then the session's): whichever side's record reaches the hub
first. A message for a task that does not exist yet is kept and waits for it.
"""

from __future__ import annotations

import uuid

from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import (
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskStatusUpdate,
)
from app.core.operator_events import task_summary
from app.core.unit_of_work import held_tasks, tell_operator
from app.errors import HubError
from app.models.types import utcnow
from app.tasks.decide import (
    MessageKey,
    NewTask,
    Read,
    Refs,
    Stored,
    TaskMove,
    TaskPlace,
    decide,
)
from app.tasks.models import Task
from app.tasks.projection import NO_MOVE_COMMANDS, AnyTaskMessage, Outcome
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


def new_task_id() -> str:
    return f"task-{uuid.uuid4().hex}"


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
    """Move the task ``message`` concerns, or keep the message waiting for its move, as
    ``app.tasks.decide`` decides: read what it needs, ask it, write what it answers.

    ``session_leader_id`` (point-to-point): a partner's report of a task the hub has not seen
    creates it, led by the session's leader. ``self_partner`` (a bridge session): a start
    may name its sender as the partner. Raises the refusal for a move that can never apply.
    """
    start = isinstance(message, TaskCommand) and message.command == TaskCommandType.START
    task_id = message.task_id or (new_task_id() if start else None)
    place = TaskPlace(session_id, group_id, members, session_leader_id, self_partner)
    task: Task | None = None
    if task_id is not None and isinstance(message, (TaskCommand, *_REPORTS)):
        task = await load_task(db, task_id, session_id)
    elif task_id is not None:  # plain talk about a task: read, not locked
        task = await db.get(Task, (task_id, session_id))
    stored: Stored | None = None
    refs: Refs | None = None
    pks: dict[MessageKey, int] = {}
    while True:
        move = decide(task, message, place, task_id=task_id, stored=stored, refs=refs)
        if isinstance(move, HubError):
            raise move
        if isinstance(move, TaskMove):
            break
        if move.refs:
            refs = await _read_refs(db, move.refs, session_id)
        if move.stored is not None:
            assert task_id is not None
            waiting = move.stored is Read.WAITING
            found = await stored_task_messages(db, task_id, session_id, waiting=waiting)
            pks = {key: pk for key, (pk, _) in found.items()}
            stored = Stored({key: m for key, (_, m) in found.items()}, waiting)
    if move.new is not None:
        assert task_id is not None
        task = _new_task(task_id, session_id, group_id, move.new)
        await insert_task(db, task)
        held_tasks(db)[(task_id, session_id)] = task
        tell_operator(db, "task", task_summary(task, None))
    if task is not None:
        if move.waits is not None:
            await mark_waiting(db, task, [pks[key] for key in move.waits])
        await unmark(db, [pks[key] for key in move.unwaits])
        if move.values:
            await save_task(db, task, dict(move.values))
    return move


async def _read_refs(db: AsyncSession, names: tuple[str, ...], session_id: str) -> Refs:
    """The session's tasks a start names as parent or dependencies: their leader and
    partner."""
    found = {}
    for name in names:
        task = await db.get(Task, (name, session_id))
        if task is not None:
            found[name] = (task.leader_id, task.partner_id)
    return found


def _new_task(task_id: str, session_id: str, group_id: str | None, new: NewTask) -> Task:
    now = utcnow()
    return Task(
        id=task_id,
        session_id=session_id,
        group_id=group_id,
        leader_id=new.leader_id,
        partner_id=new.partner_id,
        parent_task_id=new.parent_task_id,
        dependencies=list(new.dependencies),
        created_at=now,
        updated_at=now,
    )
