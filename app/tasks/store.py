"""The tasks table and a task's stored messages, as the fold reads and writes them: a task
loaded (locked) once a transaction, saved only if nobody moved it meanwhile, and the marks on
the messages that wait for a move to become possible."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import (
    parse_message,
)
from app.core.models import StoredMessage
from app.core.operator_events import task_summary
from app.core.unit_of_work import held_tasks, tell_operator
from app.models.types import utcnow
from app.tasks.models import Task
from app.tasks.projection import (
    AnyTaskMessage,
)

TASK_TYPES = ("task-command", "task-result", "task-status-update", "product-chunk")


class StaleTask(Exception):
    """Another transaction moved the task between our read and our write; retry."""


_LOAD = (
    select(Task)
    .where(col(Task.id) == bindparam("task_id"), col(Task.session_id) == bindparam("session_id"))
    .with_for_update()
    .execution_options(populate_existing=True)  # moves are written with Core (``save_task``)
)


_INSERT = insert(Task)


_SAVE = update(Task).where(
    col(Task.id) == bindparam("t_id"),
    col(Task.session_id) == bindparam("t_session_id"),
    col(Task.version) == bindparam("t_version"),
)


_OF_TASK = (  # bind names that are no column's: an UPDATE reserves those
    col(StoredMessage.session_id) == bindparam("of_session"),
    col(StoredMessage.task_id) == bindparam("of_task"),
    col(StoredMessage.type).in_(TASK_TYPES),
)


_STORED = (
    select(col(StoredMessage.pk), col(StoredMessage.message_id), col(StoredMessage.body))
    .where(*_OF_TASK)
    .order_by(col(StoredMessage.pk))  # records sent at the same time fold in arrival order
)


_WAITING = _STORED.where(col(StoredMessage.waiting).is_(True))


_UNMARK = (
    update(StoredMessage)
    .where(*_OF_TASK, col(StoredMessage.waiting).is_(True))
    .values(waiting=False)
)


_UNMARK_SOME = (
    update(StoredMessage)
    .where(col(StoredMessage.pk).in_(bindparam("pks", expanding=True)))
    .values(waiting=False)
)


_MARK = (
    update(StoredMessage)
    .where(col(StoredMessage.pk).in_(bindparam("pks", expanding=True)))
    .values(waiting=True)
)
"""Built once: building a statement costs more than running it on SQLite."""


async def load_task(db: AsyncSession, task_id: str, session_id: str) -> Task | None:
    """The task, locked for this transaction; read once a transaction (``save_task`` keeps the
    instance as written in ``held_tasks``; whoever rolls back a savepoint clears it)."""
    held: dict[tuple[str, str], Task] = held_tasks(db)
    task = held.get((task_id, session_id))
    if task is None:
        params = {"task_id": task_id, "session_id": session_id}
        task = (await db.exec(_LOAD, params=params)).first()
        if task is not None:
            held[(task_id, session_id)] = task
    return task


def _of(task: Task) -> dict[str, str]:
    return {"of_task": task.id, "of_session": task.session_id}


async def stored_task_messages(
    db: AsyncSession, task_id: str, session_id: str, *, waiting: bool = False
) -> dict[tuple[str, str], tuple[int, AnyTaskMessage]]:
    """The task's stored messages (``waiting``: those that wait), by (sender, id), each with
    its row's key."""
    conn = await db.connection()
    params = {"of_task": task_id, "of_session": session_id}
    rows = await conn.execute(_WAITING if waiting else _STORED, params)
    found = {}
    for pk, record_id, body in rows:
        message = parse_message(body)
        if record_id != message.id:
            message = message.model_copy(update={"id": record_id})  # a variant (find_record)
        found[(message.sender_id, message.id)] = (pk, message)
    return found


async def save_task(db: AsyncSession, task: Task, values: dict[str, Any]) -> None:
    """Write a move only if nobody moved the task since we read it (optimistic on SQLite).
    One Core statement: the task's ORM instance is refreshed by the next ``load_task``."""
    params = {
        **values,
        "version": task.version + 1,
        "updated_at": utcnow(),
        "t_id": task.id,
        "t_session_id": task.session_id,
        "t_version": task.version,
    }
    result = await (await db.connection()).execute(_SAVE, params)
    if result.rowcount != 1:
        raise StaleTask(task.id)
    moved = "state" in values and values["state"] != task.state
    for name in (*values, "version", "updated_at"):
        set_committed_value(task, name, params[name])
    if moved:
        tell_operator(db, "task", task_summary(task, task.state))


async def insert_task(db: AsyncSession, task: Task) -> None:
    await (await db.connection()).execute(_INSERT, task.model_dump())


async def mark_waiting(db: AsyncSession, task: Task, pks: list[int]) -> None:
    """The task's stored messages that wait are ``pks``, and only those."""
    conn = await db.connection()
    await conn.execute(_UNMARK, _of(task))
    if pks:
        await conn.execute(_MARK, {"pks": pks})


async def unmark(db: AsyncSession, pks: list[int]) -> None:
    """The stored messages ``pks`` wait no more."""
    if pks:
        await (await db.connection()).execute(_UNMARK_SOME, {"pks": pks})
