"""A group as its services find it: loaded, its members and managers, who may see or post
to it, and its views. The group operations (``groups.service``), members, flow and
messages build on this; it imports none of them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import (
    ConversationState,
    GroupView,
    MemberState,
    MemberView,
)
from app.auth.principal import Principal
from app.groups.errors import GroupNotFound, NotAManager, NotAMember
from app.groups.flow import floor_view
from app.groups.models import Group, GroupMember
from app.models.types import utcnow

MANAGERS = frozenset({"owner", "admin"})


async def load_group(db: AsyncSession, group_id: str, *, for_update: bool = False) -> Group:
    stmt = select(Group).where(col(Group.id) == group_id).execution_options(populate_existing=True)
    if for_update:
        stmt = stmt.with_for_update()
    group = (await db.exec(stmt)).first()
    if group is None:
        raise GroupNotFound(f"No group {group_id!r}.")
    return group


async def membership(db: AsyncSession, group_id: str, agent_id: str | None) -> GroupMember | None:
    if agent_id is None:
        return None
    return await db.get(GroupMember, (group_id, agent_id))


READERS = frozenset({MemberState.ACTIVE, MemberState.RELEASED})
"""Active members, and those a concluded group released: it still answers to its managers
(whose every move is refused as ``group-concluded`` or no legal move)."""


def is_manager(member: GroupMember | None) -> bool:
    return member is not None and member.state in READERS and member.role in MANAGERS


CURRENT_STATES = frozenset(
    {MemberState.ACTIVE, MemberState.INVITED, MemberState.APPLIED, MemberState.RELEASED}
)
"""Who sees a group: its members, those joining it, and those its conclusion released."""


async def visible_group(
    db: AsyncSession, group_id: str, principal: Principal, *, for_update: bool = False
) -> tuple[Group, GroupMember | None]:
    """The group and the caller's membership; 404 for those who may not see it.

    The operator, its members and those invited or applying see a group; open groups are
    visible to every agent. Whoever left, was removed, declined or was rejected sees it no
    more than a stranger does (the membership record is still returned, for its state).
    """
    group = await load_group(db, group_id, for_update=for_update)
    member = await membership(db, group_id, principal.agent_id)
    current = member is not None and member.state in CURRENT_STATES
    if principal.is_operator or current or group.join_policy == "open":
        return group, member
    raise GroupNotFound(f"No group {group_id!r}.")


async def active_group(
    db: AsyncSession, group_id: str, principal: Principal
) -> tuple[Group, GroupMember]:
    """For history, posting and streaming: active members, and the members a concluded
    group released (its record, to its end; a post is ``group-concluded``). 403 for others."""
    group, member = await visible_group(db, group_id, principal)
    if member is None or member.state not in READERS:
        raise NotAMember("Only active members of the group may do this.")
    return group, member


def final_seq(group: Group) -> int | None:
    """A concluded group's last seq (its conclusion's ``state`` event, for ever); ``None``
    while it may still speak."""
    if group.conversation_state == ConversationState.CONCLUSION.value:
        return group.last_seq
    return None


async def require_manager(
    db: AsyncSession, group_id: str, principal: Principal, *, for_update: bool = False
) -> tuple[Group, GroupMember | None]:
    group, member = await visible_group(db, group_id, principal, for_update=for_update)
    if principal.is_operator or is_manager(member):
        return group, member
    raise NotAManager("Only the group's owner or admins may do this.")


def member_view(member: GroupMember) -> MemberView:
    return MemberView.model_validate(
        {
            "agentId": member.agent_id,
            "role": member.role,
            "state": member.state,
            "muted": member.muted,
            "note": member.note,
            "updatedAt": member.updated_at,
        }
    )


async def members_of(db: AsyncSession, group_id: str) -> list[GroupMember]:
    rows = await db.exec(
        select(GroupMember)
        .where(col(GroupMember.group_id) == group_id)
        .order_by(col(GroupMember.agent_id))
    )
    return list(rows.all())


async def group_view(db: AsyncSession, group: Group) -> GroupView:
    return _view(group, await members_of(db, group.id), utcnow())


async def group_views(
    db: AsyncSession, groups: Sequence[Group]
) -> list[tuple[GroupView, list[GroupMember]]]:
    """The views of ``groups`` with their members, in one query for all the members."""
    rows = await db.exec(
        select(GroupMember)
        .where(col(GroupMember.group_id).in_([g.id for g in groups]))
        .order_by(col(GroupMember.group_id), col(GroupMember.agent_id))
    )
    members: dict[str, list[GroupMember]] = {g.id: [] for g in groups}
    for member in rows.all():
        members[member.group_id].append(member)
    now = utcnow()
    return [(_view(g, members[g.id], now), members[g.id]) for g in groups]


def _view(group: Group, members: list[GroupMember], now: datetime) -> GroupView:
    return GroupView.model_validate(
        {
            "id": group.id,
            "sessionId": group.session_id,
            "parentGroupId": group.parent_group_id,
            "depth": group.depth,
            "name": group.name,
            "goal": group.goal,
            "joinPolicy": group.join_policy,
            "ownerId": group.owner_id,
            "conversationState": group.conversation_state,
            "speakingPolicy": group.speaking_policy,
            "turnTimeoutSeconds": group.turn_timeout_seconds,
            "floor": floor_view(group, now),
            "lastSeq": group.last_seq,
            "configuredByOperator": group.configured_by_operator,
            "members": [member_view(m) for m in members],
            "createdAt": group.created_at,
            "updatedAt": group.updated_at,
        }
    )
