"""Groups: creation (by a leader, or pre-configured by the operator), views, nesting, state."""

from __future__ import annotations

import uuid

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import (
    ConversationState,
    GroupCreate,
    GroupTreeNode,
    GroupUpdate,
    GroupView,
    MemberState,
)
from app.agents.service import require_registered
from app.auth.principal import Principal
from app.core.operator_events import group_summary
from app.core.unit_of_work import tell_operator
from app.errors import NullField
from app.groups.access import (
    group_view,
    load_group,
    require_manager,
    visible_group,
)
from app.groups.conversation import move_conversation
from app.groups.errors import (
    GroupTooDeep,
    InvitedAndMember,
    NotAMember,
    OperatorConfigures,
    OwnerUnnamed,
    SubGroupElsewhere,
)
from app.groups.flow import SPEAKING_FIELDS, set_speaking
from app.groups.membership import set_member
from app.groups.models import Group
from app.models.types import utcnow
from app.sessions.errors import NotSessionLeader, SessionClosed, SessionNotFound
from app.sessions.models import Session
from app.sessions.service import participant_session

MAX_GROUP_DEPTH = 5
"""Root groups have depth 0; sub-groups may nest down to depth ``MAX_GROUP_DEPTH``."""


def new_group_id() -> str:
    return f"grp-{uuid.uuid4().hex}"


async def _owner_and_session(
    db: AsyncSession, principal: Principal, body: GroupCreate
) -> tuple[str, Session]:
    if principal.agent is not None:
        if body.owner_id is not None or body.member_ids:
            raise OperatorConfigures("Only the operator pre-configures owners and members.")
        session = await participant_session(db, body.session_id, principal.agent.id)
        return principal.agent.id, session
    if body.owner_id is None:
        raise OwnerUnnamed("An operator-configured group names its ownerId.")
    session_row = await db.get(Session, body.session_id)
    if session_row is None:
        raise SessionNotFound(f"No session {body.session_id!r}.")
    await require_registered(db, [body.owner_id])
    return body.owner_id, session_row


async def _parent(
    db: AsyncSession, body: GroupCreate, principal: Principal
) -> tuple[str | None, int]:
    if body.parent_group_id is None:
        return None, 0
    parent, member = await visible_group(db, body.parent_group_id, principal)
    if not principal.is_operator and (member is None or member.state != MemberState.ACTIVE):
        raise NotAMember("Only active members of the parent group open sub-groups in it.")
    if parent.session_id != body.session_id:
        raise SubGroupElsewhere("A sub-group belongs to its parent group's session.")
    if parent.depth + 1 > MAX_GROUP_DEPTH:
        raise GroupTooDeep(f"Groups nest at most {MAX_GROUP_DEPTH} levels deep.")
    return parent.id, parent.depth + 1


async def create_group(db: AsyncSession, *, principal: Principal, body: GroupCreate) -> GroupView:
    owner_id, session = await _owner_and_session(db, principal, body)
    if session.state == "closed":
        raise SessionClosed("The session is closed.")
    parent_id, depth = await _parent(db, body, principal)
    if parent_id is None and principal.agent is not None and session.leader_id != owner_id:
        raise NotSessionLeader(
            "Only the session's leader forms its groups; members open sub-groups."
        )
    invited = list(dict.fromkeys(i for i in body.invite_ids if i != owner_id))
    members = list(dict.fromkeys(i for i in body.member_ids if i != owner_id))
    if set(invited) & set(members):
        raise InvitedAndMember("An agent is either invited or made a member, not both.")
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


async def update_group(
    db: AsyncSession, *, group_id: str, principal: Principal, body: GroupUpdate
) -> GroupView:
    group, _ = await require_manager(db, group_id, principal, for_update=True)
    patch = body.model_dump(exclude_unset=True, exclude={"conversation_state"})
    if any(v is None for v in patch.values()):
        raise NullField("Only conversationState may be null.")
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
