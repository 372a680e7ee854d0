"""Group membership: invitations, applications, mute, roles, leaving and removal.

Every change is a ``member`` event in the group stream and in the affected agent's inbox;
an application is also put in the inbox of each of the group's managers, who review it.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState, MemberEvent, MemberState, MemberView
from app.agents.errors import UnregisteredAgent
from app.agents.models import Agent
from app.auth.principal import Principal
from app.groups.access import (
    MANAGERS,
    is_manager,
    load_group,
    member_view,
    members_of,
    membership,
    require_manager,
    visible_group,
)
from app.groups.errors import GroupConcluded, GroupNotFound, NotAManager, OperatorConfigures
from app.groups.events import append_group_event
from app.groups.flow import off_the_floor
from app.groups.models import Group, GroupMember
from app.inbox.events import append_inbox_event
from app.members.errors import (
    AlreadyApplied,
    AlreadyInvited,
    AlreadyMember,
    ApplicationNotFound,
    InvitationNotFound,
    InviteOnly,
    MemberNotFound,
    Muted,
    NotTheInvitee,
    OwnerFixed,
    OwnerOnly,
    RemovedFromGroup,
    WrongMemberState,
)
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


async def list_members(
    db: AsyncSession, *, group_id: str, principal: Principal
) -> list[MemberView]:
    await visible_group(db, group_id, principal)
    return [member_view(m) for m in await members_of(db, group_id)]


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
