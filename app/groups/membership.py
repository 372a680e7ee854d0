"""A membership written, with its events: what a group's own services change of its
members (its creation, its conclusion, a post's mentions and speak grants) as well as the
membership routes (``members.service``)."""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import MemberEvent, MemberState
from app.groups.access import MANAGERS, membership
from app.groups.errors import Muted
from app.groups.events import append_group_event
from app.groups.flow import off_the_floor
from app.groups.models import Group, GroupMember
from app.inbox.events import append_inbox_event
from app.models.types import utcnow
from app.sessions.modes import check_group_receiver

S = MemberState
PENDING = frozenset({S.INVITED, S.APPLIED})


async def set_member(
    db: AsyncSession,
    group: Group,
    agent_id: str,
    state: MemberState,
    *,
    by: str | None,
    role: str | None = None,
    muted: bool | None = None,
    note: str | None = None,
) -> GroupMember:
    """Write one membership change and its events (in the caller's transaction)."""
    member = await membership(db, group.id, agent_id)
    was_active = member is not None and member.state == S.ACTIVE
    if state in (S.ACTIVE, S.INVITED) and not was_active and role != "owner":
        await check_group_receiver(db, group, agent_id)
    now = utcnow()
    if member is None:
        member = GroupMember(group_id=group.id, agent_id=agent_id, state=state.value)
    if role is not None:
        member.role = role
    if muted is not None:
        member.muted = muted
        member.speak_grants = 0
    if note is not None:
        member.note = note
    member.state = state.value
    member.updated_at = now
    db.add(member)
    await db.flush()
    event = MemberEvent(
        group_id=group.id,
        agent_id=agent_id,
        role=member.role,
        state=state,
        muted=member.muted,
        by=by,
        note=member.note if state == S.APPLIED else None,
        at=now,
    )
    seq = await append_group_event(db, group.id, "member", event, actor_id=by, subject_id=agent_id)
    if state == S.ACTIVE and not was_active:
        member.active_since_seq = seq
        db.add(member)
    await append_inbox_event(db, agent_id, "member", event)
    if was_active and state in (S.LEFT, S.REMOVED):  # the conclusion closes the floor itself
        await off_the_floor(db, group, agent_id, by=by)
    if state == S.APPLIED:
        for manager in await _managers(db, group.id):
            await append_inbox_event(db, manager, "application", event)
    return member


async def _managers(db: AsyncSession, group_id: str) -> list[str]:
    rows = await db.exec(
        select(GroupMember.agent_id).where(
            col(GroupMember.group_id) == group_id,
            col(GroupMember.state) == S.ACTIVE.value,
            col(GroupMember.role).in_(MANAGERS),
        )
    )
    return list(rows.all())


async def grant_mentions(
    db: AsyncSession, group_id: str, sender_id: str, mentions: str | list[str]
) -> None:
    """Each mention lets a muted member speak once more."""
    stmt = update(GroupMember).where(
        col(GroupMember.group_id) == group_id,
        col(GroupMember.muted),
        col(GroupMember.agent_id) != sender_id,
    )
    if isinstance(mentions, list):
        stmt = stmt.where(col(GroupMember.agent_id).in_(mentions))
    await db.exec(stmt.values(speak_grants=col(GroupMember.speak_grants) + 1))


async def use_speak_grant(db: AsyncSession, group_id: str, agent_id: str) -> None:
    result = await db.exec(
        update(GroupMember)
        .where(
            col(GroupMember.group_id) == group_id,
            col(GroupMember.agent_id) == agent_id,
            col(GroupMember.speak_grants) > 0,
        )
        .values(speak_grants=col(GroupMember.speak_grants) - 1)
    )
    if result.rowcount != 1:
        raise Muted("You are muted in this group: you may post only when mentioned.")


async def release_members(db: AsyncSession, group: Group, *, by: str | None) -> None:
    """GB/Z Fig. 6 release, as the group concludes: each active member ``released`` (a
    ``member`` event each), the floor closed; the ``state`` event that follows is the
    group's last and ends every stream of it."""
    rows = await db.exec(
        select(GroupMember.agent_id)
        .where(
            col(GroupMember.group_id) == group.id,
            col(GroupMember.state) == MemberState.ACTIVE.value,
        )
        .order_by(col(GroupMember.agent_id))
    )
    for agent_id in list(rows.all()):
        await set_member(db, group, agent_id, MemberState.RELEASED, by=by)
    group.floor, group.floor_deadline = None, None
    db.add(group)
