"""Groups: the message distribution module (membership, messages, the event stream, triggers)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Header, Path, Query, Request, Response, status
from fastapi.responses import JSONResponse
from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette import EventSourceResponse

from agenthub.protocol.groups import (
    ApplicationCreate,
    GroupCreate,
    GroupList,
    GroupMessagePage,
    GroupUpdate,
    GroupView,
    InvitationCreate,
    MemberList,
    MemberRoleUpdate,
    MemberView,
    TriggerCreate,
    TriggerList,
    TriggerView,
)
from agenthub.protocol.messages import AnyMessage
from app.api.sse import SSE_RESPONSE, resume_point, stream_response
from app.auth.current import Principal, agent_for_claims
from app.broker import Delivery
from app.deps import AccessClaims, CurrentAgent, PrincipalDep, SessionDep
from app.errors import problem_responses
from app.services import group_messages as message_service
from app.services import groups as service
from app.services import members as member_service
from app.services import triggers as trigger_service
from app.services.events import group_backlog, group_channel
from app.services.message_writer import MessageWriter, PlainPost

router = APIRouter(prefix="/v1/groups", tags=["groups"])

MAX_PAGE = 500
GroupIdPath = Annotated[str, Path(alias="groupId", max_length=200)]
AgentIdPath = Annotated[str, Path(alias="agentId", max_length=200)]
After = Annotated[int, Query(ge=0, le=2**62, description="the last seq already seen")]
MEMBER_ERRORS = problem_responses(400, 401, 403, 404, 409, 422)

GROUP_EXAMPLE = {
    "sessionId": "sess-1",
    "name": "market report",
    "goal": "write the Q3 market report",
    "joinPolicy": "invite",
    "inviteIds": ["1.2.156.3088.1.AGH.WRITER"],
}
MESSAGE_EXAMPLE = {
    "type": "message",
    "id": "msg-1",
    "sentAt": "2026-11-30T12:00:00Z",
    "senderRole": "leader",
    "senderId": "1.2.156.3088.1.AGH.LEADER",
    "mentions": "all",
    "dataItems": [{"type": "text", "text": "Who can take the pricing section?"}],
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=problem_responses(400, 401, 403, 404, 409, 413, 422),
)
async def create_group(
    body: Annotated[GroupCreate, Body(openapi_examples={"invite": {"value": GROUP_EXAMPLE}})],
    principal: PrincipalDep,
    db: SessionDep,
    response: Response,
) -> GroupView:
    """Open a group in a session, owned by the caller: `joinPolicy` says how agents join
    (`invite`: by invitation; `apply`: a manager reviews applications; `open`: any agent
    joins at once), `inviteIds` are invited at once, `parentGroupId` makes it a sub-group.
    Answers `201` with the group and a `Location` header.

    **Who**: a participant of the session (an active member of the parent group, for a
    sub-group); or the operator, who pre-configures a group for its `ownerId` with members
    already active (`memberIds`).

    **Errors**: `403` for `ownerId` or `memberIds` from an agent, or a sub-group of a group
    the caller is not an active member of; `404` for a session the caller takes no part in;
    `409` when the session is closed; `422` for an unregistered agent, a parent group in
    another session, nesting too deep, or an operator group without `ownerId`.
    """
    view = await service.create_group(db, principal=principal, body=body)
    response.headers["Location"] = f"/v1/groups/{view.id}"
    return view


@router.get("/{groupId}", responses=problem_responses(401, 404, 422))
async def get_group(group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep) -> GroupView:
    """One group: policy, owner, members, `conversationState` (the IoA conversation), its
    stream's `lastSeq`, and its `depth` in the tree of groups.

    **Who**: anyone with a membership record in it (invited, applied, active, or past), any
    agent for an `open` group, and the operator.

    **Errors**: `404` for an unknown group, or one the caller may not see.
    """
    group, _ = await service.visible_group(db, group_id, principal)
    return await service.group_view(db, group)


@router.patch("/{groupId}", responses=problem_responses(400, 401, 403, 404, 409, 413, 422))
async def update_group(
    group_id: GroupIdPath,
    body: Annotated[
        GroupUpdate,
        Body(openapi_examples={"pause": {"value": {"conversationState": "pause-and-trigger"}}}),
    ],
    principal: PrincipalDep,
    db: SessionDep,
) -> GroupView:
    """Change a group's `name`, `goal` or `joinPolicy`, or move its conversation
    (`conversationState`) as the IoA table allows: `discussion`, `sync-task-assignment`,
    `async-task-assignment`, `pause-and-trigger`, `conclusion` (final: the group takes no
    more posts or members). A move is a `state` event in the group's stream.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    for a move the table does not allow; `422` for `null` where a value is needed.
    """
    return await service.update_group(db, group_id=group_id, principal=principal, body=body)


@router.get("/{groupId}/subgroups", responses=problem_responses(401, 404, 422))
async def list_subgroups(
    group_id: GroupIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    depth: Literal["1", "all"] = "1",
) -> GroupList:
    """The group's sub-groups: its children (`depth=1`), or all its descendants as a tree
    (`depth=all`).

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.
    """
    items = await service.subgroups(
        db, group_id=group_id, principal=principal, whole_tree=depth == "all"
    )
    return GroupList(items=items)


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
    when the agent is invited or a member already, or the group has concluded; `422` for an
    unregistered agent.
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
    concluded.
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
    `agentId`; `409` when the agent's state is not `applied`, or the group has concluded.
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


@router.post(
    "/{groupId}/messages",
    status_code=status.HTTP_201_CREATED,
    response_model=AnyMessage,
    responses={
        200: {
            "description": "The same id was posted before: the stored message",
            "model": AnyMessage,
        },
        **problem_responses(400, 401, 403, 404, 409, 413, 422),
    },
)
async def post_group_message(
    request: Request,
    group_id: GroupIdPath,
    message: Annotated[AnyMessage, Body(openapi_examples={"message": {"value": MESSAGE_EXAMPLE}})],
    claims: AccessClaims,
) -> JSONResponse:
    """Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session. Every other active member receives it on the group's event stream; the
    sender does not. Idempotent: the same `id` from the same sender again is `200` with the
    message stored the first time. A mention lets a muted member post once more.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` when the group has concluded or the session is closed, the id was used
    elsewhere by this sender, or the task cannot take this move; `422` for a message that
    does not fit (another `groupId` or `sessionId`).
    """
    # plain messages go to the batch writer; the rest, and any it hands back, one by one
    writer: MessageWriter = request.app.state.message_writer
    post = PlainPost.of(
        message, group_id=group_id, sender_id=claims.sub, key_thumbprint=claims.cnf.get("jkt")
    )
    if post is not None and (stored := await writer.write(post)) is not None:
        return JSONResponse(stored, status_code=201)
    async with request.app.state.session_factory() as db:
        caller = await agent_for_claims(db, claims)
        body, created = await message_service.post_group_message(
            db, caller=caller, group_id=group_id, message=message
        )
    return JSONResponse(body, status_code=201 if created else 200)


@router.get("/{groupId}/messages", responses=problem_responses(400, 401, 403, 404, 422))
async def list_group_messages(
    group_id: GroupIdPath,
    caller: CurrentAgent,
    db: SessionDep,
    after: After = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> GroupMessagePage:
    """The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member.

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.
    """
    return await message_service.list_group_messages(
        db, caller=caller, group_id=group_id, after=after, limit=limit
    )


@router.get(
    "/{groupId}/events",
    response_class=EventSourceResponse,
    responses={**SSE_RESPONSE, **problem_responses(400, 401, 403, 404, 422)},
)
async def stream_group_events(
    request: Request,
    group_id: GroupIdPath,
    caller: CurrentAgent,
    db: SessionDep,
    after: After | None = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=30)] = None,
) -> EventSourceResponse:
    """The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership.

    The generated Python client leaves this operation out (it would wait for the end of an
    endless body): use the kit (`HubClient.groups.events(...)` in the `agenthub` package),
    which resumes by itself, or an SSE client that sends `Authorization` (a browser's
    `EventSource` cannot).

    **Who**: an active member.

    **Errors**, before the stream opens: `400` for a `Last-Event-ID` that is not a seq;
    `403` for a viewer who is not an active member; `404` for a group the caller may not see.
    """
    _, member = await service.active_group(db, group_id, Principal(agent=caller, is_operator=False))
    start = resume_point(after, last_event_id)
    ends_after = member.active_since_seq
    await db.close()  # a stream holds no SQL connection; each backlog page takes its own

    async def backlog(session: AsyncSession, last: int, limit: int) -> list[Delivery]:
        return await group_backlog(session, group_id, last, limit)

    return stream_response(
        request,
        channel=group_channel(group_id),
        after=start,
        backlog=backlog,
        agent_id=caller.id,
        ends_after_seq=ends_after,
    )


@router.post("/{groupId}/triggers", status_code=201, responses=MEMBER_ERRORS)
async def create_trigger(
    group_id: GroupIdPath,
    body: Annotated[
        TriggerCreate,
        Body(openapi_examples={"wait": {"value": {"taskIds": ["task-1"], "timeoutSeconds": 600}}}),
    ],
    principal: PrincipalDep,
    db: SessionDep,
) -> TriggerView:
    """Set a trigger (`201`): a `trigger.fired` event in the group's stream (and in the
    setter's inbox) once all of `taskIds` are in a final state, or when `timeoutSeconds`
    pass first; it fires exactly once. A group in `pause-and-trigger` moves back to
    `discussion` when a trigger fires.

    **Who**: the group's owner or an admin, or the operator.

    **Errors**: `403` for other members; `404` for a group the caller may not see; `409`
    when the group has concluded; `422` for a task not in the group's session.
    """
    return await trigger_service.create_trigger(
        db, group_id=group_id, principal=principal, body=body
    )


@router.get("/{groupId}/triggers", responses=problem_responses(401, 404, 422))
async def list_triggers(
    group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep
) -> TriggerList:
    """The group's triggers: their tasks, deadline, and whether and how each fired.

    **Who**: whoever may see the group (see `get_group`).

    **Errors**: `404` for a group the caller may not see.
    """
    items = await trigger_service.list_triggers(db, group_id=group_id, principal=principal)
    return TriggerList(items=items)
