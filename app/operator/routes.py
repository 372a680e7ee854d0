"""The operator's read API, for the console: hub-wide lists, the hub-wide event stream, and
the hub's health. Every route here takes the operator's token only."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import Depends, Header, Query
from sse_starlette import EventSourceResponse

from agenthub.protocol.agents import ProtocolName
from agenthub.protocol.operator import (
    HubHealth,
    OperatorAgentPage,
    OperatorGroupPage,
    OperatorSessionPage,
    OperatorTaskPage,
)
from agenthub.protocol.sessions import TaskViewState
from app.agents.discovery import AgentFilters
from app.api.params import ID_CHARS, Cursor, Limit
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.core.operator_events import OPERATOR_CHANNEL
from app.deps import (
    BrokerDep,
    EngineDep,
    MetricsDep,
    OperatorFeedDep,
    RatesDep,
    RerankerDep,
    SessionDep,
    SettingsDep,
    StreamsDep,
    require_operator,
)
from app.operator import service
from app.operator.health import hub_health
from app.streams.presence import OPERATOR
from app.streams.service import StreamPlan
from app.streams.sse import HubEventStream

router = hub_router(
    prefix="/v1/operator", tags=["operator"], dependencies=[Depends(require_operator)]
)

IdQuery = Annotated[str | None, Query(max_length=ID_CHARS)]
ERRORS = problem_responses(400, 401, 403, 422)


@router.get("/agents", responses=ERRORS)
async def list_operator_agents(
    db: SessionDep,
    reranker: RerankerDep,
    q: Annotated[str | None, Query(max_length=500)] = None,
    status: Literal["online", "offline"] | None = None,
    protocol: ProtocolName | None = None,
    skill: Annotated[str | None, Query(max_length=100)] = None,
    tag: Annotated[str | None, Query(max_length=100)] = None,
    provider: Annotated[str | None, Query(max_length=200)] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> OperatorAgentPage:
    """Every registered agent, as `GET /v1/agents` finds them for the operator (with `q`:
    ranked by relevance, best first, each with its `score`; without: by id), each card with
    its newest `certificate` from the hub's CA: `state` `none` (it never asked for one),
    `valid`, `expired` or `revoked`, with its `serial`, `notAfter` and `revokedAt`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    filters = AgentFilters(
        q=q, skill=skill, tag=tag, status=status, provider=provider, protocol=protocol
    )
    return await service.list_agents(
        db, filters=filters, limit=limit, cursor=cursor, reranker=reranker
    )


@router.get("/sessions", responses=ERRORS)
async def list_operator_sessions(
    db: SessionDep,
    state: Literal["open", "closed"] | None = None,
    agent_id: Annotated[str | None, Query(alias="agentId", max_length=ID_CHARS)] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> OperatorSessionPage:
    """Every session, newest first, as `GET /v1/sessions/{sessionId}` shows it (leader,
    receivers with their modes, `bridge`), with its `taskCount` and `groupCount`;
    `agentId` keeps those the agent takes part in, `state` the `open` or `closed` ones.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    return await service.list_sessions(
        db, state=state, agent_id=agent_id, limit=limit, cursor=cursor
    )


@router.get("/groups", responses=ERRORS)
async def list_operator_groups(
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=ID_CHARS)] = None,
    parent_group_id: Annotated[
        str | None, Query(alias="parentGroupId", max_length=ID_CHARS)
    ] = None,
    depth: Annotated[int | None, Query(ge=0, le=100, description="0: root groups")] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> OperatorGroupPage:
    """Every group, newest first, as `GET /v1/groups/{groupId}` shows it
    (`conversationState`, `floor`, `lastSeq`, `depth`, `parentGroupId`, members), with its
    `memberCount` (its active members); filtered by `sessionId`, `parentGroupId` and `depth`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    return await service.list_groups(
        db,
        session_id=session_id,
        parent_group_id=parent_group_id,
        depth=depth,
        limit=limit,
        cursor=cursor,
    )


@router.get("/tasks", responses=ERRORS)
async def list_operator_tasks(
    db: SessionDep,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=ID_CHARS)] = None,
    group_id: Annotated[str | None, Query(alias="groupId", max_length=ID_CHARS)] = None,
    state: TaskViewState | None = None,
    agent_id: Annotated[str | None, Query(alias="agentId", max_length=ID_CHARS)] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
    *,
    settings: SettingsDep,
) -> OperatorTaskPage:
    """Every task, newest first, as `GET /v1/tasks/{taskId}` shows it; filtered by
    `sessionId`, `groupId`, the current `state` and `agentId` (its leader or partner).

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    return await service.list_tasks(
        db,
        session_id=session_id,
        group_id=group_id,
        state=state,
        agent_id=agent_id,
        limit=limit,
        cursor=cursor,
        max_bytes=settings.max_page_bytes,
    )


OPERATOR_SSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events: `id: <boot>-<n>`, `event: <kind>`, `data: <json>`",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}


@router.get(
    "/events",
    response_class=EventSourceResponse,
    responses={**OPERATOR_SSE, **problem_responses(401, 403, 422, 429, 503)},
)
async def stream_operator_events(
    streams: StreamsDep,
    feed: OperatorFeedDep,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=100)] = None,
) -> HubEventStream:
    """What happens across the hub, live, as server-sent events: `id: <boot>-<n>`,
    `event: <kind>`, `data: <json>`, with `: keep-alive` comments in between. Kinds:
    `message` (a group post: `groupId`, `sessionId`, `seq`, `id`, `senderId`, `type`,
    `sentAt`, `taskId`, `text`, the first text item cut to 200 characters; or a
    point-to-point record: the same without `groupId` and `seq`), `task` (a task came to be
    or changed state: `taskId`, `sessionId`, `groupId`, `state`, `leaderId`, `partnerId`),
    `member` (`groupId`, `agentId`, `state`, `role`, `muted`), `group` (created, or its
    conversation moved: `groupId`, `conversationState`), `floor` (`groupId`, `speakers`,
    `deadline`), `session` (opened or closed: `sessionId`, `state`), `agent` (`agentId`,
    `event`: `registered`, `updated` or `deregistered`), `trigger` (fired: `groupId`,
    `triggerId`, `outcome`).

    The stream starts now; with `Last-Event-ID` it resumes after that event, from the last
    10,000 this replica keeps. An id it cannot resume from (another replica's or an earlier
    boot's, one older than what it keeps, or one from before a gap in what it heard) gets
    `event: reset` (data `{}`) first, then what happens next: reload the lists on a reset.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`). A browser's `EventSource` cannot send the token: read the stream
    with `fetch`.

    **Errors**, before the stream opens: `429` past `AGENTHUB_MAX_STREAMS_PER_AGENT` operator
    streams, `503` when the replica holds `AGENTHUB_MAX_STREAMS` or admits no more this
    second (both with `Retry-After`).
    """
    settings = streams.settings
    lease = await streams.hold(OPERATOR, None, time.time() + settings.stream_max_seconds)
    try:
        await feed.listen()  # before the start is read: a fresh stream starts after a gap
    except BaseException:
        streams.presence.release(lease)
        raise
    plan = StreamPlan(
        channel=OPERATOR_CHANNEL,
        after=feed.resume_point(last_event_id),
        backlog=feed.backlog,
        me=OPERATOR,
        keepalive_seconds=settings.keepalive_seconds,
        queue_frames=settings.stream_queue_frames,
        lease=lease,
    )
    return HubEventStream(streams.writer(plan, broker=feed))


@router.get("/health", responses=problem_responses(401, 403))
async def get_operator_health(
    engine: EngineDep, broker: BrokerDep, metrics: MetricsDep, rates: RatesDep
) -> HubHealth:
    """This replica's health, for the console's strip: `openStreams` (its event streams
    open now), `deliveriesPerSecond` (events written to them) and `ingestPerSecond`
    (messages recorded), over the last 2 to 4 seconds, whether its `store` and `broker`
    answer now (`ok` or `down`, each asked with a 2 s bound, as `/readyz` asks), and the
    hub's `version`.

    **Who**: the operator (`AGENTHUB_OPERATOR_TOKEN`); an agent's access token is `403`
    (`operator-only`).
    """
    return await hub_health(engine=engine, broker=broker, metrics=metrics, rates=rates)
