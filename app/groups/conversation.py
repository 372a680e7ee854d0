"""A group's conversation state (IoA): moved as the table allows, each move a ``state``
event; the move to ``conclusion`` releases the group's members, its open tasks and its
pending triggers first."""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import (
    CONVERSATION_MOVES,
    ConversationState,
    StateEvent,
)
from app.groups.errors import IllegalConversationMove
from app.groups.events import append_group_event
from app.groups.membership import release_members
from app.groups.models import Group
from app.models.types import utcnow
from app.tasks.conclusion import cancel_pending_triggers, release_open_tasks


async def move_conversation(
    db: AsyncSession,
    group: Group,
    target: ConversationState,
    *,
    by: str | None,
    reason: str | None = None,
) -> None:
    """Move the conversation state if the IoA table allows it; record it as a ``state`` event.
    Every way to ``conclusion`` comes here: it releases the group's members first."""
    current = ConversationState(group.conversation_state)
    if target == current:
        return
    if target not in CONVERSATION_MOVES[current]:
        raise IllegalConversationMove(
            f"The conversation cannot move from {current.value} to {target.value}."
        )
    now = utcnow()
    if target == ConversationState.CONCLUSION:
        await release_open_tasks(db, session_id=group.session_id, group_id=group.id, at=now)
        await cancel_pending_triggers(db, group.id, now)
        await release_members(db, group, by=by)
    group.conversation_state = target.value
    group.updated_at = now
    db.add(group)
    await db.flush()
    event = StateEvent(
        group_id=group.id, previous=current, state=target, by=by, reason=reason, at=now
    )
    await append_group_event(db, group.id, "state", event, actor_id=by)
