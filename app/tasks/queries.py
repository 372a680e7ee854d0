"""Reading tasks (the ones the caller leads or executes), a task's messages (GB/Z Table 4
``messages``) and a session's context (GB/Z Table 5 ``context``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, exists, func, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from agenthub.protocol.groups import MemberState
from agenthub.protocol.sessions import (
    SUBMITTED,
    BridgeCaller,
    MessagePage,
    SessionContext,
    TaskPage,
    TaskView,
    TaskViewState,
)
from app.agents.models import Agent
from app.auth.principal import Principal
from app.core.models import StoredMessage
from app.groups.models import GroupMember
from app.pages import PAGE_BYTES, Keyset, stored_size
from app.sessions.callers import session_callers
from app.sessions.message_pages import message_page
from app.sessions.models import SessionParticipant
from app.sessions.service import participant_session
from app.tasks.errors import (
    AmbiguousTask,
    TaskNotFound,
)
from app.tasks.models import Task


async def get_task(
    db: AsyncSession, *, task_id: str, agent_id: str | None, session_id: str | None = None
) -> TaskView:
    """The task, as ``visible_task`` finds it (``agent_id`` None: the operator)."""
    return (
        await task_views(db, [await visible_task(db, task_id, agent_id, session_id=session_id)])
    )[0]


async def list_tasks(
    db: AsyncSession,
    *,
    agent_id: str,
    session_id: str | None,
    group_id: str | None,
    state: TaskViewState | None,
    role: str | None,
    limit: int,
    cursor: str | None,
    max_bytes: int = PAGE_BYTES,
) -> TaskPage:
    if role == "leader":
        stmt = select(Task).where(col(Task.leader_id) == agent_id)
    elif role == "partner":
        stmt = select(Task).where(col(Task.partner_id) == agent_id)
    else:
        stmt = select(Task).where(_takes_part(agent_id))
    if session_id:
        stmt = stmt.where(col(Task.session_id) == session_id)
    if group_id:
        stmt = stmt.where(col(Task.group_id) == group_id)
    if state == SUBMITTED:
        stmt = stmt.where(col(Task.state).is_(None))
    elif state:
        stmt = stmt.where(col(Task.state) == state)
    return await _task_page(db, stmt, cursor=cursor, limit=limit, max_bytes=max_bytes)


def _takes_part(agent_id: str) -> ColumnElement[bool]:
    """The tasks an agent may list: those it leads or works on."""
    return or_(col(Task.leader_id) == agent_id, col(Task.partner_id) == agent_id)


OLDEST_FIRST = Keyset(
    col(Task.created_at), col(Task.id), col(Task.session_id), kinds=(datetime, str, str)
)
NEWEST_FIRST = Keyset(
    col(Task.created_at),
    col(Task.id),
    col(Task.session_id),
    kinds=(datetime, str, str),
    descending=True,
)
TASK_BYTES = (
    stored_size(Task.products)
    + stored_size(Task.status_history)
    + func.coalesce(stored_size(Task.status), 0)
)
"""About what a task's view takes: its products and statuses (a page of tasks is bounded by
bytes too, as one of messages is)."""


async def task_page(
    db: AsyncSession,
    stmt: SelectOfScalar[Task],
    *,
    order: Keyset,
    cursor: str | None,
    limit: int,
    max_bytes: int,
) -> tuple[list[TaskView], str | None]:
    """One page of the tasks ``stmt`` selects, in ``order``, of about ``max_bytes``, as
    they are shown; and the next page's cursor."""
    page, next_cursor = await order.page(
        db,
        stmt,
        cursor=cursor,
        limit=limit,
        values=lambda t: (t.created_at, t.id, t.session_id),
        size=TASK_BYTES,
        max_bytes=max_bytes,
    )
    return await task_views(db, page), next_cursor


async def _task_page(
    db: AsyncSession,
    stmt: SelectOfScalar[Task],
    *,
    cursor: str | None,
    limit: int,
    max_bytes: int,
) -> TaskPage:
    """One page of the tasks ``stmt`` selects, oldest first."""
    items, next_cursor = await task_page(
        db, stmt, order=OLDEST_FIRST, cursor=cursor, limit=limit, max_bytes=max_bytes
    )
    return TaskPage(items=items, next_cursor=next_cursor)


async def list_task_messages(
    db: AsyncSession,
    *,
    principal: Principal,
    session_id: str,
    task_id: str,
    after: str | None,
    limit: int,
    max_bytes: int = PAGE_BYTES,
) -> MessagePage:
    """The task's messages, as stored, to whoever sees the task: its point-to-point ones,
    and, of a group's task, its group messages to the group's active members (and to the
    operator, who reads them all)."""
    caller = principal.agent_id
    task = await visible_task(db, task_id, caller, session_id=session_id)
    stmt = select(StoredMessage).where(
        col(StoredMessage.session_id) == task.session_id, col(StoredMessage.task_id) == task.id
    )
    member = None
    if task.group_id is not None and caller is not None:
        member = await db.get(GroupMember, (task.group_id, caller))
    active = member is not None and member.state == MemberState.ACTIVE
    reads_group = principal.is_operator or active
    if not reads_group:
        stmt = stmt.where(col(StoredMessage.group_id).is_(None))
    else:  # its group's posts, never another group's (rows stored before the check)
        stmt = stmt.where(
            or_(col(StoredMessage.group_id).is_(None), col(StoredMessage.group_id) == task.group_id)
        )
    return await message_page(
        db, stmt, after=after, limit=limit, max_bytes=max_bytes, session_id=task.session_id
    )


async def session_context(
    db: AsyncSession,
    *,
    caller: Agent,
    session_id: str,
    messages_after: str | None,
    tasks_after: str | None,
    limit: int,
    max_bytes: int = PAGE_BYTES,
) -> SessionContext:
    """The session's history: its point-to-point messages and the tasks of it the caller
    may list (``GET /v1/tasks``: those it leads or works on), each paged."""
    await participant_session(db, session_id, caller.id)
    stmt = select(StoredMessage).where(
        col(StoredMessage.session_id) == session_id, col(StoredMessage.group_id).is_(None)
    )
    messages = await message_page(
        db, stmt, after=messages_after, limit=limit, max_bytes=max_bytes, session_id=session_id
    )
    tasks = select(Task).where(col(Task.session_id) == session_id, _takes_part(caller.id))
    return SessionContext(
        messages=messages,
        tasks=await _task_page(db, tasks, cursor=tasks_after, limit=limit, max_bytes=max_bytes),
    )


async def task_views(db: AsyncSession, tasks: Sequence[Task]) -> list[TaskView]:
    """The views of ``tasks``, each of a bridge session with its caller (one lookup for all)."""
    callers = await session_callers(db, {t.session_id for t in tasks})
    return [to_view(t, callers.get(t.session_id)) for t in tasks]


def to_view(task: Task, caller: BridgeCaller | None = None) -> TaskView:
    return TaskView.model_validate(
        {
            "id": task.id,
            "sessionId": task.session_id,
            "groupId": task.group_id,
            "parentTaskId": task.parent_task_id,
            "leaderId": task.leader_id,
            "partnerId": task.partner_id,
            "state": task.state or SUBMITTED,
            "status": task.status,
            "products": task.products,
            "statusHistory": task.status_history,
            "dependencies": task.dependencies,
            "createdAt": task.created_at,
            "updatedAt": task.updated_at,
            "releasedAt": task.released_at,
            "caller": caller,
        }
    )


async def visible_task(
    db: AsyncSession, task_id: str, agent_id: str | None, *, session_id: str | None = None
) -> Task:
    """The task if the caller leads it, executes it or takes part in its session (``None``:
    the operator, who sees every task). Ids are per session: without ``session_id``, an id
    the caller sees in two sessions is a 409."""
    stmt = select(Task).where(col(Task.id) == task_id)
    if agent_id is not None:
        takes_part = exists().where(
            col(SessionParticipant.session_id) == col(Task.session_id),
            col(SessionParticipant.agent_id) == agent_id,
        )
        stmt = stmt.where(
            or_(col(Task.leader_id) == agent_id, col(Task.partner_id) == agent_id, takes_part)
        )
    if session_id is not None:
        stmt = stmt.where(col(Task.session_id) == session_id)
    found = list((await db.exec(stmt.limit(2))).all())
    if not found:
        raise TaskNotFound(f"No task {task_id!r}.")
    if len(found) > 1:
        raise AmbiguousTask(
            f"Task id {task_id!r} names tasks in more than one of your sessions: "
            "say which with sessionId."
        )
    return found[0]
