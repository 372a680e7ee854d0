"""What a session's close releases (GB/Z Fig. 5 step 10, Fig. 6 steps 18-24): its
point-to-point tasks still open are marked released, and their partners and leaders told;
its groups still talking conclude (the conversation-state move of ``groups.service``, which
releases their members and open tasks). A group concluded before is left as it ended."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState
from app.core.unit_of_work import tell_operator
from app.groups.conversation import move_conversation
from app.groups.models import Group
from app.sessions.models import Session
from app.tasks.conclusion import release_open_tasks

CLOSED_REASON = "the session closed"


async def release_session(db: AsyncSession, session: Session, *, by: str, at: datetime) -> None:
    """In the caller's transaction, as ``session`` closes at ``at``."""
    tell_operator(db, "session", {"sessionId": session.id, "state": "closed"})
    await release_open_tasks(db, session_id=session.id, group_id=None, at=at)
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
