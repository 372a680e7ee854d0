"""Reading tasks: the ones the caller leads or executes."""

from __future__ import annotations

from sqlalchemy import and_, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import TaskState
from agenthub.protocol.sessions import TaskPage, TaskView
from app.models import Task
from app.services.pages import cursor_time, decode_cursor, encode_cursor
from app.services.tasks import to_view, visible_task


async def get_task(
    db: AsyncSession, *, task_id: str, agent_id: str, session_id: str | None = None
) -> TaskView:
    return to_view(await visible_task(db, task_id, agent_id, session_id=session_id))


async def list_tasks(
    db: AsyncSession,
    *,
    agent_id: str,
    session_id: str | None,
    group_id: str | None,
    state: TaskState | None,
    role: str | None,
    limit: int,
    cursor: str | None,
) -> TaskPage:
    if role == "leader":
        stmt = select(Task).where(col(Task.leader_id) == agent_id)
    elif role == "partner":
        stmt = select(Task).where(col(Task.partner_id) == agent_id)
    else:
        stmt = select(Task).where(
            or_(col(Task.leader_id) == agent_id, col(Task.partner_id) == agent_id)
        )
    if session_id:
        stmt = stmt.where(col(Task.session_id) == session_id)
    if group_id:
        stmt = stmt.where(col(Task.group_id) == group_id)
    if state:
        stmt = stmt.where(col(Task.state) == state.value)
    if cursor:
        created, last_id, last_session = decode_cursor(cursor, types=(str, str, str))
        when = cursor_time(created)
        stmt = stmt.where(
            or_(
                col(Task.created_at) > when,
                and_(
                    col(Task.created_at) == when,
                    or_(
                        col(Task.id) > last_id,
                        and_(col(Task.id) == last_id, col(Task.session_id) > last_session),
                    ),
                ),
            )
        )
    order = (col(Task.created_at), col(Task.id), col(Task.session_id))
    rows = list((await db.exec(stmt.order_by(*order).limit(limit + 1))).all())
    page = rows[:limit]
    next_cursor = None
    if len(rows) > limit:
        last = page[-1]
        next_cursor = encode_cursor([last.created_at.isoformat(), last.id, last.session_id])
    return TaskPage(items=[to_view(t) for t in page], next_cursor=next_cursor)
