"""What ends with a group's conversation, or a session: open tasks are marked released
(GB/Z Fig. 6 steps 18-24), their partners, leaders and group told; a concluded group's
pending triggers are cancelled. A concluded group's ``state`` event stays its last: nothing
is appended to it afterwards (the session's close releases only what is still open)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.sessions import SUBMITTED, TaskReleased
from agenthub.protocol.tasks import FINAL_STATES
from app.groups.events import append_group_event
from app.groups.models import GroupTrigger
from app.inbox.events import append_inbox_event
from app.tasks.models import Task

RELEASED = "task.released"
CANCELLED = "cancelled"


async def release_open_tasks(
    db: AsyncSession, *, session_id: str, group_id: str | None, at: datetime
) -> None:
    """Mark the open tasks of ``group_id`` (``None``: the session's point-to-point ones)
    released at ``at``, in the caller's transaction."""
    still_open = or_(
        col(Task.state).is_(None), col(Task.state).not_in([s.value for s in FINAL_STATES])
    )
    in_place = col(Task.group_id).is_(None) if group_id is None else col(Task.group_id) == group_id
    where = (
        col(Task.session_id) == session_id,
        in_place,
        col(Task.released_at).is_(None),
        still_open,
    )
    tasks = list((await db.exec(select(Task).where(*where).order_by(col(Task.created_at)))).all())
    if not tasks:
        return
    await db.exec(update(Task).where(*where).values(released_at=at))
    for task in tasks:
        event = TaskReleased(
            task_id=task.id,
            session_id=session_id,
            group_id=task.group_id,
            leader_id=task.leader_id,
            partner_id=task.partner_id,
            state=task.state or SUBMITTED,
            released_at=at,
        )
        await append_inbox_event(db, task.partner_id, RELEASED, event)
        if task.leader_id != task.partner_id:  # a bridge session's task: one inbox, one event
            await append_inbox_event(db, task.leader_id, RELEASED, event)
        if task.group_id is not None:
            await append_group_event(db, task.group_id, RELEASED, event, subject_id=task.partner_id)


async def cancel_pending_triggers(db: AsyncSession, group_id: str, at: datetime) -> None:
    """A concluded group's triggers never fire (they would speak after its last event)."""
    await db.exec(
        update(GroupTrigger)
        .where(col(GroupTrigger.group_id) == group_id, col(GroupTrigger.fired_at).is_(None))
        .values(fired_at=at, outcome=CANCELLED)
    )
