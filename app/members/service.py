"""Group membership: invitations, applications, mute, roles, leaving and removal.

Every change is a ``member`` event in the group stream and in the affected agent's inbox;
an application is also put in the inbox of each of the group's managers, who review it.
"""

from __future__ import annotations

from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState, MemberState, MemberView
from app.agents.errors import UnregisteredAgent
from app.agents.models import Agent
from app.auth.principal import Principal
from app.groups.access import (
    is_manager,
    load_group,
    member_view,
    members_of,
    membership,
    require_manager,
    visible_group,
)
from app.groups.errors import GroupConcluded, GroupNotFound, NotAManager, OperatorConfigures
from app.groups.membership import PENDING, set_member
from app.groups.models import Group, GroupMember
from app.members.errors import (
    AlreadyApplied,
    AlreadyInvited,
    AlreadyMember,
    ApplicationNotFound,
    InvitationNotFound,
    InviteOnly,
    MemberNotFound,
    NotTheInvitee,
    OwnerFixed,
    OwnerOnly,
    RemovedFromGroup,
    WrongMemberState,
)

S = MemberState


def _open(group: Group) -> None:
    if group.conversation_state == ConversationState.CONCLUSION.value:
        raise GroupConcluded("The group has concluded.")


async def _done(db: AsyncSession, member: GroupMember) -> MemberView:
    await db.flush()
    return member_view(member)


async def invite(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str
) -> MemberView:
    group, _ = await require_manager(db, group_id, principal)
    _open(group)
    agent = await db.get(Agent, agent_id)
    if agent is None or agent.deleted_at is not None:
        raise UnregisteredAgent(f"No registered agent {agent_id!r}.")
    current = await membership(db, group_id, agent_id)
    if current is not None and current.state == S.ACTIVE:
        raise AlreadyMember(f"{agent_id!r} is a member already.")
    if current is not None and current.state == S.INVITED:
        raise AlreadyInvited(f"{agent_id!r} is invited already.")
    # an applicant who is invited has both sides' consent: it joins
    state = S.ACTIVE if current is not None and current.state == S.APPLIED else S.INVITED
    member = await set_member(db, group, agent_id, state, by=principal.agent_id)
    return await _done(db, member)


async def _own_pending(
    db: AsyncSession, group_id: str, principal: Principal, agent_id: str, expected: MemberState
) -> tuple[Group, GroupMember]:
    if principal.agent_id != agent_id:
        raise NotTheInvitee("Only the invited agent answers its invitation.")
    group, member = await visible_group(db, group_id, principal)
    if member is None:
        raise InvitationNotFound(f"No invitation for {agent_id!r}.")
    if member.state != expected:
        raise WrongMemberState(f"{agent_id!r} is {member.state}, not {expected.value}.")
    return group, member


async def answer_invitation(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str, accept: bool
) -> MemberView:
    group, _ = await _own_pending(db, group_id, principal, agent_id, S.INVITED)
    if accept:
        _open(group)
    state = S.ACTIVE if accept else S.DECLINED
    member = await set_member(db, group, agent_id, state, by=agent_id)
    return await _done(db, member)


async def apply(
    db: AsyncSession, *, group_id: str, principal: Principal, note: str | None
) -> MemberView:
    if principal.agent is None:
        raise OperatorConfigures("Agents apply to groups; the operator configures them.")
    agent_id = principal.agent.id
    group = await load_group(db, group_id)
    current = await membership(db, group_id, agent_id)
    if group.join_policy == "invite" and current is None:
        raise GroupNotFound(f"No group {group_id!r}.")
    _open(group)
    if group.join_policy == "invite":
        raise InviteOnly("This group takes members by invitation only.")
    if current is not None:
        if current.state == S.ACTIVE:
            raise AlreadyMember("You are a member already.")
        if current.state == S.APPLIED:
            raise AlreadyApplied("You have applied already.")
        if current.state == S.REMOVED and group.join_policy == "open":
            raise RemovedFromGroup("You were removed from this group; ask its owner to invite you.")
    joins = group.join_policy == "open" or (current is not None and current.state == S.INVITED)
    state = S.ACTIVE if joins else S.APPLIED
    member = await set_member(db, group, agent_id, state, by=agent_id, note=note)
    return await _done(db, member)


async def review_application(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str, approve: bool
) -> MemberView:
    group, _ = await require_manager(db, group_id, principal)
    member = await membership(db, group_id, agent_id)
    if member is None:
        raise ApplicationNotFound(f"No application from {agent_id!r}.")
    if member.state != S.APPLIED:
        raise WrongMemberState(f"{agent_id!r} is {member.state}, not applied.")
    if approve:
        _open(group)
    state = S.ACTIVE if approve else S.REJECTED
    member = await set_member(db, group, agent_id, state, by=principal.agent_id)
    return await _done(db, member)


async def _active_target(db: AsyncSession, group_id: str, agent_id: str) -> GroupMember:
    member = await membership(db, group_id, agent_id)
    if member is None or member.state != S.ACTIVE:
        raise MemberNotFound(f"{agent_id!r} is not an active member.")
    return member


async def set_muted(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str, muted: bool
) -> MemberView:
    group, _ = await require_manager(db, group_id, principal)
    target = await _active_target(db, group_id, agent_id)
    if target.role == "owner" and muted:
        raise OwnerFixed("The owner cannot be muted.")
    member = await set_member(db, group, agent_id, S.ACTIVE, by=principal.agent_id, muted=muted)
    return await _done(db, member)


async def set_role(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str, role: str
) -> MemberView:
    group, caller = await require_manager(db, group_id, principal)
    if not principal.is_operator and (caller is None or caller.role != "owner"):
        raise OwnerOnly("Only the owner (or the operator) appoints admins.")
    target = await _active_target(db, group_id, agent_id)
    if target.role == "owner":
        raise OwnerFixed("The owner's role does not change.")
    member = await set_member(db, group, agent_id, S.ACTIVE, by=principal.agent_id, role=role)
    return await _done(db, member)


async def remove(
    db: AsyncSession, *, group_id: str, principal: Principal, agent_id: str
) -> MemberView:
    """Leave (the member itself) or remove (owner, admins, operator)."""
    # locked: the floor it may hold moves with it (as a post moves it)
    group, caller = await visible_group(db, group_id, principal, for_update=True)
    target = await membership(db, group_id, agent_id)
    leaving = principal.agent_id == agent_id
    if not leaving and not (principal.is_operator or is_manager(caller)):
        raise NotAManager("Only the group's owner or admins remove members.")
    if target is None or target.state not in {S.ACTIVE, *PENDING}:
        raise MemberNotFound(f"{agent_id!r} is not in this group.")
    if target.role == "owner":
        raise OwnerFixed("The owner cannot leave or be removed; conclude the group instead.")
    if leaving and target.state in PENDING:
        state = S.DECLINED if target.state == S.INVITED else S.LEFT
    else:
        state = S.LEFT if leaving else S.REMOVED
    member = await set_member(db, group, agent_id, state, by=principal.agent_id)
    return await _done(db, member)


async def list_members(
    db: AsyncSession, *, group_id: str, principal: Principal
) -> list[MemberView]:
    await visible_group(db, group_id, principal)
    return [member_view(m) for m in await members_of(db, group_id)]
