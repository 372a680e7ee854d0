"""The caller's inbox: what is addressed to it (invitations, applications, tasks, triggers)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Header, Query
from sqlmodel.ext.asyncio.session import AsyncSession
from sse_starlette import EventSourceResponse

from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.broker import Delivery
from app.deps import AccessClaims, CurrentAgent, SessionDep, StreamsDep
from app.inbox.events import inbox_backlog, inbox_channel
from app.streams.sse import SSE_RESPONSE, HubEventStream, resume_point

router = hub_router(prefix="/v1/agents/me", tags=["agents"])


@router.get(
    "/events",
    response_class=EventSourceResponse,
    responses={**SSE_RESPONSE, **problem_responses(400, 401, 422, 429, 503)},
)
async def stream_inbox(
    streams: StreamsDep,
    claims: AccessClaims,
    caller: CurrentAgent,
    db: SessionDep,
    after: Annotated[int | None, Query(ge=0, le=2**62)] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=30)] = None,
) -> HubEventStream:
    """The caller's inbox, as server-sent events: what is addressed to it. `member`: an
    invitation, or any change of its own membership; `application`: an application to a
    group it manages; `task`: a task command for it as partner; `trigger.fired`: a trigger it
    set has fired. Frames are `id: <seq>` (the inbox's own numbering), `event: <kind>`,
    `data: <json>`, with `: keep-alive` comments in between. The stream ends when its token
    expires, its agent is deregistered or re-keyed, or after `AGENTHUB_STREAM_MAX_SECONDS`; it
    resumes after `Last-Event-ID` (or `?after=`; the header wins), else starts at the beginning.

    The generated Python client leaves this operation out (it would wait for the end of an
    endless body): use the kit (`HubClient.inbox()` in the `agenthub` package), which resumes by
    itself, or an SSE client that sends `Authorization` (a browser's `EventSource` cannot).

    **Who**: an agent, for its own inbox.

    **Errors**, before the stream opens: `429` past `AGENTHUB_MAX_STREAMS_PER_AGENT` open
    streams, `503` when the replica holds `AGENTHUB_MAX_STREAMS` or admits no more this second
    (both with `Retry-After`); `400` for a `Last-Event-ID` that is not a seq.
    """
    start = resume_point(after, last_event_id)
    agent_id = caller.id
    await db.close()  # a stream holds no SQL connection; each backlog page takes its own

    async def backlog(session: AsyncSession, last: int, limit: int) -> list[Delivery]:
        return await inbox_backlog(session, agent_id, last, limit)

    return await streams.open(
        channel=inbox_channel(agent_id), after=start, backlog=backlog, claims=claims
    )
