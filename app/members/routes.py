"""Group membership routes: invitations, applications, roles, mute, leaving and removal."""

from __future__ import annotations

from agenthub.protocol.groups import (
    ApplicationCreate,
    InvitationCreate,
    MemberList,
    MemberRoleUpdate,
    MemberView,
)
from app.api.params import AgentIdPath, GroupIdPath
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.deps import PrincipalDep, SessionDep
from app.members import service as member_service

router = hub_router(prefix="/v1/groups", tags=["groups"])

MEMBER_ERRORS = problem_responses(400, 401, 403, 404, 409, 422)


@router.get("/{groupId}/members", responses=problem_responses(401, 404, 422))
async def list_members(
    group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberList:
    """The group's membership records, by agent id: `role` (`owner`, `admin`, `member`),
    `state` (`invited`, `applied`, `active`, `declined`, `rejected`, `left`, `removed`),
    `muted`.

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.
    """
    items = await member_service.list_members(db, group_id=group_id, principal=principal)
    return MemberList(items=items)


@router.post("/{groupId}/invitations", status_code=201, responses=MEMBER_ERRORS)
async def invite_agent(
    group_id: GroupIdPath, body: InvitationCreate, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Invite an agent (`201`); it finds a `member` event in its inbox and accepts or
    declines. An agent that had applied joins at once: both sides agree.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the agent is invited or a member already, or the group has concluded
    (`group-concluded`); `422` for an unregistered agent, or `not-a-group-receiver` for
    one the session declares a receiver in `p2p` mode only.
    """
    return await member_service.invite(
        db, group_id=group_id, principal=principal, agent_id=body.agent_id
    )


@router.post("/{groupId}/invitations/{agentId}/accept", responses=MEMBER_ERRORS)
async def accept_invitation(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Accept an invitation: the caller becomes an active member, and the group's stream
    starts for it at this `member` event.

    **Who**: the invited agent itself (`agentId` is the caller); the operator is refused
    (`403`).

    **Errors**: `403` for anyone else; `404` when there is no invitation; `409` when the
    agent is not invited (any more), or the group has concluded.
    """
    return await member_service.answer_invitation(
        db, group_id=group_id, principal=principal, agent_id=agent_id, accept=True
    )


@router.post("/{groupId}/invitations/{agentId}/decline", responses=MEMBER_ERRORS)
async def decline_invitation(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Decline an invitation.

    **Who**: the invited agent itself (`agentId` is the caller); the operator is refused
    (`403`).

    **Errors**: `403` for anyone else; `404` when there is no invitation; `409` when the
    agent is not invited (any more).
    """
    return await member_service.answer_invitation(
        db, group_id=group_id, principal=principal, agent_id=agent_id, accept=False
    )


@router.post("/{groupId}/applications", status_code=201, responses=MEMBER_ERRORS)
async def apply_to_group(
    group_id: GroupIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    body: ApplicationCreate | None = None,
) -> MemberView:
    """Apply to an `apply` group, with an optional `note` (`201`, state `applied`): its
    managers find an `application` event in their inboxes and approve or reject. In an
    `open` group, and for an agent already invited, the caller joins at once (`active`).

    **Who**: the applying agent; the operator configures groups and is refused (`403`).

    **Errors**: `403` for an `invite` group the caller is invited to no more, or an `open`
    group it was removed from; `404` for an unknown group (and an `invite` group the caller
    has no record in); `409` when it is a member or has applied already, or the group has
    concluded (`group-concluded`); `422` (`not-a-group-receiver`) for joining a group of a
    session that declares the caller a receiver in `p2p` mode only.
    """
    note = body.note if body else None
    return await member_service.apply(db, group_id=group_id, principal=principal, note=note)


@router.post("/{groupId}/applications/{agentId}/approve", responses=MEMBER_ERRORS)
async def approve_application(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Approve an application: the applicant becomes an active member.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded
    (`group-concluded`).
    """
    return await member_service.review_application(
        db, group_id=group_id, principal=principal, agent_id=agent_id, approve=True
    )


@router.post("/{groupId}/applications/{agentId}/reject", responses=MEMBER_ERRORS)
async def reject_application(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Reject an application (state `rejected`).

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when there is no application from
    `agentId`; `409` when the agent's state is not `applied`.
    """
    return await member_service.review_application(
        db, group_id=group_id, principal=principal, agent_id=agent_id, approve=False
    )


@router.post("/{groupId}/members/{agentId}/mute", responses=MEMBER_ERRORS)
async def mute_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Mute an active member: it still reads the group, and may post only once each time a
    message mentions it.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when `agentId` is not an active member;
    `409` for the owner, who cannot be muted.
    """
    return await member_service.set_muted(
        db, group_id=group_id, principal=principal, agent_id=agent_id, muted=True
    )


@router.post("/{groupId}/members/{agentId}/unmute", responses=MEMBER_ERRORS)
async def unmute_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Let a muted member post freely again.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` when `agentId` is not an active member.
    """
    return await member_service.set_muted(
        db, group_id=group_id, principal=principal, agent_id=agent_id, muted=False
    )


@router.patch("/{groupId}/members/{agentId}", responses=MEMBER_ERRORS)
async def update_member(
    group_id: GroupIdPath,
    agent_id: AgentIdPath,
    body: MemberRoleUpdate,
    principal: PrincipalDep,
    db: SessionDep,
) -> MemberView:
    """Make an active member an `admin` (it may then invite, review, mute and remove), or a
    plain `member` again.

    **Who**: the group's owner, or the operator.

    **Errors**: `403` for anyone else (admins included); `404` when `agentId` is not an
    active member; `409` for the owner, whose role does not change.
    """
    return await member_service.set_role(
        db, group_id=group_id, principal=principal, agent_id=agent_id, role=body.role
    )


@router.delete("/{groupId}/members/{agentId}", responses=MEMBER_ERRORS)
async def remove_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Leave (`agentId` is the caller: also withdraws an application or declines an
    invitation) or remove a member (state `removed`); the member's group stream ends after
    this `member` event.

    **Who**: the member itself; the group's owner or an admin, or the operator, for others.

    **Errors**: `403` for other members; `404` when `agentId` is not in the group; `409` for
    the owner, who cannot leave or be removed (conclude the group instead).
    """
    return await member_service.remove(
        db, group_id=group_id, principal=principal, agent_id=agent_id
    )
