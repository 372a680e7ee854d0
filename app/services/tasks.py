"""The task projection: task messages move tasks as the AIP state table allows, nothing else."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import exists, or_
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import (
    Message,
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatus,
    TaskStatusUpdate,
)
from agenthub.protocol.sessions import TaskView
from agenthub.protocol.tasks import is_final, leader_command_target, partner_may_report
from app.errors import AmbiguousTask, Conflict, InvalidInput, NotFound
from app.models import SessionParticipant, Task
from app.models.types import utcnow

AnyTaskMessage = Message | TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk
NO_MOVE_COMMANDS = frozenset({TaskCommandType.GET, TaskCommandType.RE_STREAM})


class StaleTask(Exception):
    """Another transaction moved the task between our read and our write; retry."""


def new_task_id() -> str:
    return f"task-{uuid.uuid4().hex}"


async def _load(db: AsyncSession, task_id: str, session_id: str) -> Task:
    stmt = (
        select(Task)
        .where(col(Task.id) == task_id, col(Task.session_id) == session_id)
        .with_for_update()
    )
    task = (await db.exec(stmt)).first()
    if task is None:
        raise Conflict(f"No task {task_id!r} in this session: start it first.")
    return task


def _partner_of(message: TaskCommand) -> str:
    if message.partner_id:
        return message.partner_id
    if isinstance(message.mentions, list) and len(message.mentions) == 1:
        return message.mentions[0]
    raise InvalidInput("A start command names its partner in partnerId or mentions exactly one.")


async def _start(
    db: AsyncSession,
    message: TaskCommand,
    *,
    session_id: str,
    group_id: str | None,
    members: set[str],
) -> Task:
    partner_id = _partner_of(message)
    if partner_id == message.sender_id:
        raise InvalidInput("A leader cannot be the partner of its own task.")
    if partner_id not in members:
        raise InvalidInput(f"The partner {partner_id!r} does not take part here.")
    task_id = message.task_id or new_task_id()
    # ids are per session: another session's tasks neither collide nor show
    if await db.get(Task, (task_id, session_id)) is not None:
        raise Conflict(f"Task {task_id!r} exists already in this session.")
    # a task descends from, and depends on, tasks of its own session only (a parent: one its
    # leader leads or works on); any other id is answered as if it did not exist
    for ref in [message.parent_task_id, *(message.dependencies or [])]:
        if ref is None:
            continue
        found = await db.get(Task, (ref, session_id))
        takes_part = found is not None and message.sender_id in (found.leader_id, found.partner_id)
        mine = found is not None and (ref != message.parent_task_id or takes_part)
        if found is None or not mine:
            raise InvalidInput(f"No task {ref!r} in this session to depend on or descend from.")
    now = utcnow()
    task = Task(
        id=task_id,
        session_id=session_id,
        group_id=group_id,
        parent_task_id=message.parent_task_id,
        leader_id=message.sender_id,
        partner_id=partner_id,
        dependencies=list(message.dependencies or []),
        created_at=now,
        updated_at=now,
    )
    db.add(task)
    await db.flush()
    return task


def _merge_products(
    current: list[dict[str, Any]], new: list[dict[str, Any]], *, append: bool = False
) -> list[dict[str, Any]]:
    by_id = {p["id"]: p for p in current}
    for product in new:
        old = by_id.get(product["id"])
        if append and old is not None:
            merged = {**old, **product, "dataItems": old["dataItems"] + product["dataItems"]}
            by_id[product["id"]] = merged
        else:
            by_id[product["id"]] = product
    return list(by_id.values())


async def _save(db: AsyncSession, task: Task, values: dict[str, Any]) -> None:
    """Write a move only if nobody moved the task since we read it (optimistic on SQLite)."""
    values = {**values, "version": task.version + 1, "updated_at": utcnow()}
    result = await db.exec(
        update(Task)
        .where(
            col(Task.id) == task.id,
            col(Task.session_id) == task.session_id,
            col(Task.version) == task.version,
        )
        .values(**values)
    )
    if result.rowcount != 1:
        raise StaleTask(task.id)


def _status_values(task: Task, status: TaskStatus) -> dict[str, Any]:
    wire = status.to_wire()
    return {
        "state": status.state.value,
        "status": wire,
        "status_history": [*task.status_history, wire],
    }


async def _leader_command(db: AsyncSession, task: Task, message: TaskCommand) -> None:
    if message.sender_id != task.leader_id:
        raise Conflict("Only the task's leader sends it commands.")
    if message.command in NO_MOVE_COMMANDS:
        return
    if message.command == TaskCommandType.START:
        raise Conflict(f"Task {task.id!r} exists already.")
    current = TaskState(task.state) if task.state else None
    target = leader_command_target(current, message.command)
    if target is None:
        raise Conflict(
            f"'{message.command.value}' is not allowed while the task is "
            f"{current.value if current else 'not yet accepted'}."
        )
    status = TaskStatus(
        state=target, state_changed_at=message.sent_at, data_items=message.data_items
    )
    await _save(db, task, _status_values(task, status))


async def _partner_report(
    db: AsyncSession, task: Task, message: TaskResult | TaskStatusUpdate | ProductChunk
) -> None:
    if message.sender_id != task.partner_id:
        raise Conflict("Only the task's partner reports its status and products.")
    current = TaskState(task.state) if task.state else None
    if isinstance(message, ProductChunk):
        if current is None or is_final(current):
            raise Conflict("Products can be added only to a live task.")
        products = _merge_products(
            task.products, [message.product.to_wire()], append=message.append
        )
        await _save(db, task, {"products": products})
        return
    new = message.status.state
    if not partner_may_report(current, new):
        raise Conflict(
            f"The partner may not move the task from "
            f"{current.value if current else 'its start'} to {new.value}."
        )
    values = _status_values(task, message.status)
    if isinstance(message, TaskResult) and message.products:
        values["products"] = _merge_products(task.products, [p.to_wire() for p in message.products])
    await _save(db, task, values)


async def apply_task_message(
    db: AsyncSession,
    message: AnyTaskMessage,
    *,
    session_id: str,
    group_id: str | None,
    members: set[str],
) -> str | None:
    """Move the task ``message`` concerns; return its task id (new for a start)."""
    if (
        isinstance(message, TaskCommand)
        and message.command == TaskCommandType.START
        and (message.task_id is None or await db.get(Task, (message.task_id, session_id)) is None)
    ):
        task = await _start(db, message, session_id=session_id, group_id=group_id, members=members)
        return task.id
    if message.task_id is None:
        if isinstance(message, TaskCommand):
            raise InvalidInput("A task command other than start names its taskId.")
        return None
    task = await _load(db, message.task_id, session_id)
    if isinstance(message, TaskCommand):
        await _leader_command(db, task, message)
    elif isinstance(message, TaskResult | TaskStatusUpdate | ProductChunk):
        await _partner_report(db, task, message)
    elif (
        message.sender_id not in (task.leader_id, task.partner_id)
        and message.sender_id not in members
    ):
        raise Conflict("Only participants may talk about this task.")
    return task.id


def to_view(task: Task) -> TaskView:
    return TaskView.model_validate(
        {
            "id": task.id,
            "sessionId": task.session_id,
            "groupId": task.group_id,
            "parentTaskId": task.parent_task_id,
            "leaderId": task.leader_id,
            "partnerId": task.partner_id,
            "state": task.state,
            "status": task.status,
            "products": task.products,
            "statusHistory": task.status_history,
            "dependencies": task.dependencies,
            "createdAt": task.created_at,
            "updatedAt": task.updated_at,
        }
    )


async def visible_task(
    db: AsyncSession, task_id: str, agent_id: str, *, session_id: str | None = None
) -> Task:
    """The task if the caller leads it, executes it or takes part in its session. Ids are
    per session: without ``session_id``, an id the caller sees in two sessions is a 409."""
    takes_part = exists().where(
        col(SessionParticipant.session_id) == col(Task.session_id),
        col(SessionParticipant.agent_id) == agent_id,
    )
    stmt = select(Task).where(
        col(Task.id) == task_id,
        or_(col(Task.leader_id) == agent_id, col(Task.partner_id) == agent_id, takes_part),
    )
    if session_id is not None:
        stmt = stmt.where(col(Task.session_id) == session_id)
    found = list((await db.exec(stmt.limit(2))).all())
    if not found:
        raise NotFound(f"No task {task_id!r}.")
    if len(found) > 1:
        raise AmbiguousTask(
            f"Task id {task_id!r} names tasks in more than one of your sessions: "
            "say which with sessionId."
        )
    return found[0]
