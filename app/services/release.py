"""What a session's close releases (GB/Z Fig. 5 step 10, Fig. 6 steps 18-24): its tasks
still open are marked released, and their partners, leaders and groups told; its groups
still talking conclude (the conversation-state move of ``services.groups``, which releases
their members)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState
from agenthub.protocol.sessions import SUBMITTED, TaskReleased
from agenthub.protocol.tasks import FINAL_STATES
from app.models import Group, Session, Task
from app.services.events import append_group_event, append_inbox_event
from app.services.groups import move_conversation

RELEASED = "task.released"
CLOSED_REASON = "the session closed"


async def release_session(db: AsyncSession, session: Session, *, by: str, at: datetime) -> None:
    """In the caller's transaction, as ``session`` closes at ``at``."""
    await _release_tasks(db, session.id, at)
    groups = await db.exec(
        select(Group)
        .where(
            col(Group.session_id) == session.id,
            col(Group.conversation_state) != ConversationState.CONCLUSION.value,
        )
        .order_by(col(Group.depth).desc(), col(Group.id))  # sub-groups first
    )
    for group in groups.all():
        await move_conversation(
            db, group, ConversationState.CONCLUSION, by=by, reason=CLOSED_REASON
        )


async def _release_tasks(db: AsyncSession, session_id: str, at: datetime) -> None:
    still_open = or_(
        col(Task.state).is_(None), col(Task.state).not_in([s.value for s in FINAL_STATES])
    )
    where = (col(Task.session_id) == session_id, col(Task.released_at).is_(None), still_open)
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
        await append_inbox_event(db, task.leader_id, RELEASED, event)
        if task.group_id is not None:
            await append_group_event(db, task.group_id, RELEASED, event, subject_id=task.partner_id)
