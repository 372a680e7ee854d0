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
    view = await service.create_group(db, principal=principal, body=body)
    response.headers["Location"] = f"/v1/groups/{view.id}"
    return view


@router.get("/{groupId}", responses=problem_responses(401, 404, 422))
async def get_group(group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep) -> GroupView:
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
    return await service.update_group(db, group_id=group_id, principal=principal, body=body)


@router.get("/{groupId}/subgroups", responses=problem_responses(401, 404, 422))
async def list_subgroups(
    group_id: GroupIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    depth: Literal["1", "all"] = "1",
) -> GroupList:
    items = await service.subgroups(
        db, group_id=group_id, principal=principal, whole_tree=depth == "all"
    )
    return GroupList(items=items)


@router.get("/{groupId}/members", responses=problem_responses(401, 404, 422))
async def list_members(
    group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberList:
    items = await member_service.list_members(db, group_id=group_id, principal=principal)
    return MemberList(items=items)


@router.post("/{groupId}/invitations", status_code=201, responses=MEMBER_ERRORS)
async def invite_agent(
    group_id: GroupIdPath, body: InvitationCreate, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    return await member_service.invite(
        db, group_id=group_id, principal=principal, agent_id=body.agent_id
    )


@router.post("/{groupId}/invitations/{agentId}/accept", responses=MEMBER_ERRORS)
async def accept_invitation(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    return await member_service.answer_invitation(
        db, group_id=group_id, principal=principal, agent_id=agent_id, accept=True
    )


@router.post("/{groupId}/invitations/{agentId}/decline", responses=MEMBER_ERRORS)
async def decline_invitation(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
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
    """Apply (``apply`` groups: a manager reviews it) or join at once (``open`` groups)."""
    note = body.note if body else None
    return await member_service.apply(db, group_id=group_id, principal=principal, note=note)


@router.post("/{groupId}/applications/{agentId}/approve", responses=MEMBER_ERRORS)
async def approve_application(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    return await member_service.review_application(
        db, group_id=group_id, principal=principal, agent_id=agent_id, approve=True
    )


@router.post("/{groupId}/applications/{agentId}/reject", responses=MEMBER_ERRORS)
async def reject_application(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    return await member_service.review_application(
        db, group_id=group_id, principal=principal, agent_id=agent_id, approve=False
    )


@router.post("/{groupId}/members/{agentId}/mute", responses=MEMBER_ERRORS)
async def mute_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    return await member_service.set_muted(
        db, group_id=group_id, principal=principal, agent_id=agent_id, muted=True
    )


@router.post("/{groupId}/members/{agentId}/unmute", responses=MEMBER_ERRORS)
async def unmute_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
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
    """The owner (or the operator) makes an active member an admin, or a member again."""
    return await member_service.set_role(
        db, group_id=group_id, principal=principal, agent_id=agent_id, role=body.role
    )


@router.delete("/{groupId}/members/{agentId}", responses=MEMBER_ERRORS)
async def remove_member(
    group_id: GroupIdPath, agent_id: AgentIdPath, principal: PrincipalDep, db: SessionDep
) -> MemberView:
    """Leave (yourself) or remove (owner, admins, operator); the member's stream ends."""
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
    """The group's events after a seq; a member never receives its own messages."""

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
    """Fire ``trigger.fired`` once all the tasks are final (or the timeout passes)."""
    return await trigger_service.create_trigger(
        db, group_id=group_id, principal=principal, body=body
    )


@router.get("/{groupId}/triggers", responses=problem_responses(401, 404, 422))
async def list_triggers(
    group_id: GroupIdPath, principal: PrincipalDep, db: SessionDep
) -> TriggerList:
    items = await trigger_service.list_triggers(db, group_id=group_id, principal=principal)
    return TriggerList(items=items)
