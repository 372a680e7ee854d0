"""Group message routes: post (through the write pipeline), history, and the event stream."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Header, Response, status
from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette import EventSourceResponse

import agenthub.tracing as tracing
from agenthub.protocol.groups import (
    GroupMessagePage,
)
from agenthub.protocol.messages import AnyMessage
from app.api.params import After, GroupIdPath, Limit
from app.api.problems import problem_responses
from app.api.routing import JsonBody, hub_router
from app.auth.principal import Principal
from app.broker import Delivery
from app.deps import (
    AccessClaims,
    CurrentAgent,
    PrincipalDep,
    RecorderDep,
    SessionDep,
    SettingsDep,
    StreamsDep,
)
from app.groups import access as group_access
from app.groups import messages as message_service
from app.groups.events import group_backlog, group_channel
from app.streams.sse import SSE_RESPONSE, HubEventStream, resume_point

router = hub_router(prefix="/v1/groups", tags=["groups"])


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
    "/{groupId}/messages",
    status_code=status.HTTP_201_CREATED,
    response_model=AnyMessage,
    responses={
        200: {
            "description": "The same message was posted before: the stored message",
            "model": AnyMessage,
        },
        202: {
            "description": "Stored and delivered; its task move waits for one that allows it",
            "model": AnyMessage,
        },
        **problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
    },
)
async def post_group_message(
    group_id: GroupIdPath,
    message: Annotated[AnyMessage, Body(openapi_examples={"message": {"value": MESSAGE_EXAMPLE}})],
    recorder: RecorderDep,
) -> Response:
    """Post a message to the group (`201`, with its `seq` in the group's stream): a plain
    `message`, or a task message (`task-command`, `task-result`, …) that moves its task as
    in a session (`202` when its move waits for one that allows it). Every other active
    member receives it on the group's event stream; the
    sender does not. Idempotent: the same message again (the same `id` from the same sender,
    with the same content) is `200` with the message stored the first time; another message
    under an `id` its sender used in this group is a post of its own. A mention lets a muted
    member post once more.

    The conversation state says what the group takes (IoA flow control): `discussion` and
    `async-task-assignment` every post; `sync-task-assignment` task commands from the owner
    and admins only, and plain messages only from them and the partners of the group's open
    tasks (who report as ever); `pause-and-trigger` only task commands (owner, admins) and
    reports on the tasks a pending trigger waits for; `conclusion` nothing.

    `nextSpeaker` (IoA's `next_speaker`, at most 20 active members) names who should speak
    next. Under the `turns` speaking policy only they and the owner may post until one of
    them has (naming no one, that opens the floor; naming others, passes it) or the group's
    `turnTimeoutSeconds` pass (the hub opens the floor by itself); a task report passes
    whoever holds the floor but names no one then. Each change is a `floor` event.

    **Who**: an active member, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller, the caller is not an active member,
    or it is muted and not mentioned since its last post; `404` for a group the caller may
    not see; `409` (`group-concluded`, `session-closed`, `message-id-reused`,
    `not-allowed-in-state` for a post its conversation state does not take, `not-your-turn`
    when another member holds the floor, or for a task message the codes of the session
    route: `task-exists`, `wrong-task-role`, `illegal-task-move`, `task-busy`); `422` for a
    message that does not fit (another `groupId` or `sessionId`, a `nextSpeaker` who is no
    active member); `413` for a post over `AGENTHUB_MAX_POST_BYTES` (256 KiB by default);
    `429` (with `Retry-After`) for an agent posting faster than
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`.
    """
    with tracing.span(f"publish {group_id}", kind="PRODUCER", attributes=_publish(group_id)):
        body, status_code = await recorder.one(message, group_id=group_id)
    return JsonBody(body, status_code=status_code)


def _publish(group_id: str) -> dict[str, str]:
    """A group post's span attributes (OpenTelemetry's messaging conventions)."""
    return {
        "messaging.system": "agenthub",
        "messaging.operation.type": "publish",
        "messaging.destination.name": group_id,
    }


@router.get("/{groupId}/messages", responses=problem_responses(400, 401, 403, 404, 422))
async def list_group_messages(
    group_id: GroupIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    settings: SettingsDep,
    after: After = 0,
    limit: Limit = 50,
) -> GroupMessagePage:
    """The group's messages by `seq`, after the seq given in `after` (0: from the start);
    the answer's `nextCursor` is the `after` of the next page.

    **Who**: an active member (or one the group's conclusion released); or the operator,
    who reads every group (and posts to none).

    **Errors**: `403` for a viewer who is not an active member; `404` for a group the caller
    may not see.
    """
    return await message_service.list_group_messages(
        db,
        principal=principal,
        group_id=group_id,
        after=after,
        limit=limit,
        max_bytes=settings.max_page_bytes,
    )


@router.get(
    "/{groupId}/events",
    response_class=EventSourceResponse,
    responses={**SSE_RESPONSE, **problem_responses(400, 401, 403, 404, 422, 429, 503)},
)
async def stream_group_events(
    streams: StreamsDep,
    group_id: GroupIdPath,
    claims: AccessClaims,
    caller: CurrentAgent,
    db: SessionDep,
    after: After | None = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=30)] = None,
) -> HubEventStream:
    """The group's events, as server-sent events, after a seq: `message` (another member's
    post), `member` (a membership change), `state` (a conversation move), `floor` (who may
    speak, under `turns`) and `trigger.fired`.
    Frames are `id: <seq>`, `event: <kind>`, `data: <json>`, with `: keep-alive` comments in
    between. The stream resumes after `Last-Event-ID` (or `?after=`; the header wins), else
    starts at the beginning. A member never receives its own messages; the stream ends after
    the `member` event that ends the caller's membership (`left`, `removed`), or after the
    `state` event of the group's conclusion, its last (members it released may still read
    the record to there).

    The generated Python client leaves this operation out (it would wait for the end of an
    endless body): use the kit (`HubClient.groups.events(...)` in the `agenthub` package),
    which resumes by itself, or an SSE client that sends `Authorization` (a browser's
    `EventSource` cannot).

    **Who**: an active member (or one the group's conclusion released).

    **Errors**, before the stream opens: `429` past `AGENTHUB_MAX_STREAMS_PER_AGENT` open
    streams, `503` when the replica holds `AGENTHUB_MAX_STREAMS` or admits no more this second
    (both with `Retry-After`); `400` for a `Last-Event-ID` that is not a seq; `403` for a viewer
    who is not an active member; `404` for a group the caller may not see.
    """
    group, member = await group_access.active_group(
        db, group_id, Principal(agent=caller, is_operator=False)
    )
    start = resume_point(after, last_event_id)
    last_seq = group_access.final_seq(group)
    ends_after = member.active_since_seq
    await db.close()  # a stream holds no SQL connection; each backlog page takes its own

    async def backlog(session: AsyncSession, last: int, limit: int) -> list[Delivery]:
        return await group_backlog(session, group_id, last, limit)

    return await streams.open(
        channel=group_channel(group_id),
        after=start,
        backlog=backlog,
        claims=claims,
        ends_after_seq=ends_after,
        last_seq=last_seq,
    )
