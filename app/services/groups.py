"""Groups: creation (by a leader, or pre-configured by the operator), views, nesting, state."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import (
    CONVERSATION_MOVES,
    ConversationState,
    GroupCreate,
    GroupTreeNode,
    GroupUpdate,
    GroupView,
    MemberState,
    MemberView,
    StateEvent,
)
from app.auth.principal import Principal
from app.errors import Conflict, Forbidden, InvalidInput, NotFound, SessionClosed
from app.models import Group, GroupMember, Session
from app.models.types import utcnow
from app.services.agents import require_registered
from app.services.conclusion import cancel_pending_triggers, release_open_tasks
from app.services.events import append_group_event, tell_operator
from app.services.flow import SPEAKING_FIELDS, floor_view, release_members, set_speaking
from app.services.operator_events import group_summary
from app.services.sessions import participant_session

MAX_GROUP_DEPTH = 5
"""Root groups have depth 0; sub-groups may nest down to depth ``MAX_GROUP_DEPTH``."""
MANAGERS = frozenset({"owner", "admin"})


def new_group_id() -> str:
    return f"grp-{uuid.uuid4().hex}"


async def load_group(db: AsyncSession, group_id: str, *, for_update: bool = False) -> Group:
    stmt = select(Group).where(col(Group.id) == group_id).execution_options(populate_existing=True)
    if for_update:
        stmt = stmt.with_for_update()
    group = (await db.exec(stmt)).first()
    if group is None:
        raise NotFound(f"No group {group_id!r}.")
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
    raise NotFound(f"No group {group_id!r}.")


async def active_group(
    db: AsyncSession, group_id: str, principal: Principal
) -> tuple[Group, GroupMember]:
    """For history, posting and streaming: active members, and the members a concluded
    group released (its record, to its end; a post is ``group-concluded``). 403 for others."""
    group, member = await visible_group(db, group_id, principal)
    if member is None or member.state not in READERS:
        raise Forbidden("Only active members of the group may do this.")
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
    raise Forbidden("Only the group's owner or admins may do this.")


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


async def _owner_and_session(
    db: AsyncSession, principal: Principal, body: GroupCreate
) -> tuple[str, Session]:
    if principal.agent is not None:
        if body.owner_id is not None or body.member_ids:
            raise Forbidden("Only the operator pre-configures owners and members.")
        session = await participant_session(db, body.session_id, principal.agent.id)
        return principal.agent.id, session
    if body.owner_id is None:
        raise InvalidInput("An operator-configured group names its ownerId.")
    session_row = await db.get(Session, body.session_id)
    if session_row is None:
        raise NotFound(f"No session {body.session_id!r}.")
    await require_registered(db, [body.owner_id])
    return body.owner_id, session_row


async def _parent(
    db: AsyncSession, body: GroupCreate, principal: Principal
) -> tuple[str | None, int]:
    if body.parent_group_id is None:
        return None, 0
    parent, member = await visible_group(db, body.parent_group_id, principal)
    if not principal.is_operator and (member is None or member.state != MemberState.ACTIVE):
        raise Forbidden("Only active members of the parent group open sub-groups in it.")
    if parent.session_id != body.session_id:
        raise InvalidInput("A sub-group belongs to its parent group's session.")
    if parent.depth + 1 > MAX_GROUP_DEPTH:
        raise InvalidInput(f"Groups nest at most {MAX_GROUP_DEPTH} levels deep.")
    return parent.id, parent.depth + 1


async def create_group(db: AsyncSession, *, principal: Principal, body: GroupCreate) -> GroupView:
    from app.services.members import set_member  # members import this module

    owner_id, session = await _owner_and_session(db, principal, body)
    if session.state == "closed":
        raise SessionClosed("The session is closed.")
    parent_id, depth = await _parent(db, body, principal)
    if parent_id is None and principal.agent is not None and session.leader_id != owner_id:
        raise Forbidden("Only the session's leader forms its groups; members open sub-groups.")
    invited = list(dict.fromkeys(i for i in body.invite_ids if i != owner_id))
    members = list(dict.fromkeys(i for i in body.member_ids if i != owner_id))
    if set(invited) & set(members):
        raise InvalidInput("An agent is either invited or made a member, not both.")
    await require_registered(db, invited + members)
    now = utcnow()
    group = Group(
        id=new_group_id(),
        session_id=session.id,
        parent_group_id=parent_id,
        depth=depth,
        name=body.name,
        goal=body.goal,
        join_policy=body.join_policy,
        owner_id=owner_id,
        speaking_policy=body.speaking_policy,
        turn_timeout_seconds=body.turn_timeout_seconds,
        configured_by_operator=principal.is_operator,
        created_at=now,
        updated_at=now,
    )
    db.add(group)
    await db.flush()
    tell_operator(db, "group", group_summary(group))
    by = principal.agent_id
    await set_member(db, group, owner_id, MemberState.ACTIVE, by=by, role="owner")
    for agent_id in members:
        await set_member(db, group, agent_id, MemberState.ACTIVE, by=by)
    for agent_id in invited:
        await set_member(db, group, agent_id, MemberState.INVITED, by=by)
    await db.flush()
    return await group_view(db, await load_group(db, group.id))


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
        raise Conflict(f"The conversation cannot move from {current.value} to {target.value}.")
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


async def update_group(
    db: AsyncSession, *, group_id: str, principal: Principal, body: GroupUpdate
) -> GroupView:
    group, _ = await require_manager(db, group_id, principal, for_update=True)
    patch = body.model_dump(exclude_unset=True, exclude={"conversation_state"})
    if any(v is None for v in patch.values()):
        raise InvalidInput("Only conversationState may be null.")
    await set_speaking(db, group, body, by=principal.agent_id)
    fields = {k: v for k, v in patch.items() if k not in SPEAKING_FIELDS}
    if fields:
        for key, value in fields.items():
            setattr(group, key, value)
        group.updated_at = utcnow()
        db.add(group)
    if body.conversation_state is not None:
        await move_conversation(db, group, body.conversation_state, by=principal.agent_id)
    await db.flush()
    return await group_view(db, await load_group(db, group_id))


async def subgroups(
    db: AsyncSession, *, group_id: str, principal: Principal, whole_tree: bool
) -> list[GroupTreeNode]:
    """The children of a group, or (``whole_tree``) all its descendants as a tree."""
    await visible_group(db, group_id, principal)
    nodes: dict[str, GroupTreeNode] = {}
    roots: list[GroupTreeNode] = []
    frontier = [group_id]
    while frontier:
        rows = await db.exec(
            select(Group)
            .where(col(Group.parent_group_id).in_(frontier))
            .order_by(col(Group.created_at), col(Group.id))
        )
        children = list(rows.all())
        for child in children:
            node = GroupTreeNode(
                id=child.id,
                name=child.name,
                depth=child.depth,
                parent_group_id=child.parent_group_id,
                conversation_state=ConversationState(child.conversation_state),
            )
            nodes[child.id] = node
            if child.parent_group_id == group_id:
                roots.append(node)
            else:
                nodes[child.parent_group_id or ""].children.append(node)
        frontier = [c.id for c in children] if whole_tree else []
    return roots
