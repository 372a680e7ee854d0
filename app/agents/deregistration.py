"""Deregistering an agent: it leaves the registry, its groups and its sessions at once.

Its tokens stop working at the next request (the registry row is marked deleted). Its open
streams on this replica end before anything is changed (``end_streams``: nothing the
deregistration writes, its own membership-ended events included, reaches them), and on the
other replicas within a keep-alive period (``streams.presence``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState
from agenthub.protocol.groups import MemberState as S
from app.agents.service import retire_agent
from app.groups.conversation import move_conversation
from app.groups.membership import PENDING, set_member
from app.groups.models import Group, GroupMember
from app.sessions.service import end_places_of


async def deregister(
    db: AsyncSession,
    *,
    agent_id: str,
    caller_id: str | None,
    is_operator: bool,
    end_streams: Callable[[], None] = lambda: None,
) -> None:
    await retire_agent(db, agent_id=agent_id, caller_id=caller_id, is_operator=is_operator)
    end_streams()  # the caller may deregister it: its streams end before anything is written
    await end_memberships_of(db, agent_id)
    await end_places_of(db, agent_id)
    await db.flush()


async def end_memberships_of(db: AsyncSession, agent_id: str) -> None:
    """A deregistered agent is removed from every group it was in or was joining, with the
    events that end its streams; a group it owned concludes (no one else may)."""
    rows = await db.exec(
        select(GroupMember, Group)
        .join(Group, col(Group.id) == col(GroupMember.group_id))
        .where(
            col(GroupMember.agent_id) == agent_id,
            col(GroupMember.state).in_([S.ACTIVE.value, *(p.value for p in PENDING)]),
        )
    )
    for member, group in rows.all():
        await set_member(db, group, agent_id, S.REMOVED, by=None)
        if member.role == "owner" and group.conversation_state != ConversationState.CONCLUSION:
            await move_conversation(
                db, group, ConversationState.CONCLUSION, by=None, reason="the owner left the hub"
            )
