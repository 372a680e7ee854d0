"""A group as an A2A agent (``docs/reference/a2a-group-extension.md``): its signed card and JSON-RPC
endpoint (posts, reads, streams that resume from a seq). The streams are the group's own
(``streams.service.event_stream``), each event's A2A frame made once (``wire.frame_parts``).

Kept whole: the endpoint is one route whose docstring is the operation's whole description
(every method, its limits and refusals), and ``_Call`` is what that route dispatches to, a
method a JSON-RPC method; read apart, each would point at the other for every line."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from a2a.types import GetTaskRequest, SendMessageRequest, SubscribeToTaskRequest
from fastapi import Header, Request, Response
from google.protobuf.json_format import ParseDict, ParseError
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.jsonrpc import MAX_ID_CHARS, oversized_id
from agenthub.protocol.tokens import AccessTokenClaims
from app.a2a_groups import service, wire
from app.a2a_groups.card import group_card
from app.agents.models import Agent
from app.api.params import GroupIdPath
from app.api.problems import problem_responses
from app.api.routing import JsonBody, base_url, hub_router
from app.auth.errors import TokenMissing
from app.auth.principal import Principal
from app.broker import Delivery
from app.core.unit_of_work import commit
from app.deps import (
    AccessTokenDep,
    AdmissionDep,
    IngestDep,
    KeysDep,
    Recorder,
    SessionDep,
    SettingsDep,
    StreamsDep,
)
from app.errors import HubError
from app.groups import access as group_access
from app.groups.events import group_backlog, group_channel
from app.groups.models import Group, GroupMember
from app.middleware import AGENT
from app.streams.sse import Streams, resume_point
from app.tasks.errors import TaskNotFound

router = hub_router(prefix="/v1/groups", tags=["groups"])

EXTENSIONS_HEADER = "A2A-Extensions"
LIST_MESSAGES = "ListGroupMessages"  # the extension's method: the history, paged
A2A_VIEW = "a2a"  # the key of an event's A2A frame parts in ``Delivery.views``


def _error(request_id: Any, code: int, message: str) -> JsonBody:
    return JsonBody(service.rpc_error(request_id, code, message))


async def _caller(
    db: AsyncSession, request: Request, token: str | None, group_id: str, settings: Any, keys: Any
) -> tuple[AccessTokenClaims, Agent, str]:
    if token is None:
        raise TokenMissing("This route needs 'Authorization: Bearer <access token>'.")
    hub = base_url(request, settings.public_url)
    url = service.a2a_url(hub, group_id)
    claims, agent = await service.caller(db, token, keys=keys, issuer=settings.issuer, url=url)
    request.scope[AGENT] = agent.id  # the access log's agent_id
    return claims, agent, hub


@router.get("/{groupId}/agent-card.json", responses=problem_responses(401, 404, 422))
async def get_group_agent_card(
    group_id: GroupIdPath,
    request: Request,
    db: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
    token: AccessTokenDep,
) -> dict[str, Any]:
    """The group as an A2A agent: an A2A v1.0 Agent Card naming the group, its goal and its
    active members (as skills), its JSON-RPC endpoint (`/v1/groups/{groupId}/a2a`), the
    hub's OAuth 2.0 client-credentials scheme (`resource`: that endpoint's URL), and the
    group extension (`https://agenthub.dev/a2a/ext/group/v1`, with `groupId`, `sessionId`,
    `joinPolicy`, `speakingPolicy`, `conversationState`). Signed by the hub's key as the
    agents' cards are.

    **Who**: an agent that may see the group (its members; any agent for an `open` group),
    with the hub's access token or a token of the hub's OAuth endpoint for this group.

    **Errors**: `401` without a good token; `404` for a group the caller may not see.
    """
    _, agent, hub = await _caller(db, request, token, group_id, settings, keys)
    group, _ = await group_access.visible_group(
        db, group_id, Principal(agent=agent, is_operator=False)
    )
    members = await service.active_member_names(db, group_id)
    url = service.a2a_url(hub, group_id)
    return group_card(group, members, hub_url=hub, url=url, keys=keys)


@router.post(
    "/{groupId}/a2a",
    openapi_extra={"requestBody": wire.JSONRPC_REQUEST_BODY},
    responses={
        200: {
            "description": "A JSON-RPC 2.0 response, or (`SendStreamingMessage`, "
            "`SubscribeToTask`) a `text/event-stream` of them",
        },
        **problem_responses(400, 401, 404, 422, 429, 503),
    },
)
async def group_a2a(
    group_id: GroupIdPath,
    request: Request,
    db: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
    token: AccessTokenDep,
    streams: StreamsDep,
    ingest: IngestDep,
    admission: AdmissionDep,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=30)] = None,
    extensions: Annotated[str | None, Header(alias=EXTENSIONS_HEADER, max_length=2000)] = None,
) -> Response:
    """The group's A2A endpoint (JSON-RPC 2.0, A2A v1.0 method names; the group extension,
    `docs/reference/a2a-group-extension.md`). The group's conversation is one A2A task: its
    id is the group's id, its `contextId` the group's session.

    - `SendMessage`: the message is the caller's group post (its `messageId` the post's id:
      the same message again is the same post, another message under it is refused,
      `message-id-reused`); the answer is the group's task, its
      `status.message` the post with its `seq`.
    - `SendStreamingMessage`: the same post, then the conversation from there as a stream.
    - `SubscribeToTask` (`id`: the group's id): the group's task, then every later event of
      the group as a status update (a post is its `status.message`, with its sender in the
      extension's `source`), each SSE frame's `id` its seq. The `Last-Event-ID` header (a
      service parameter) resumes after that seq: every later event, once, from the store
      when the live path has moved on.
    - `GetTask` (`id`: the group's id): the group's task, its history the last `historyLength`
      posts that fit `AGENTHUB_MAX_PAGE_BYTES` (500 at most); `id` a task started in it: that.
    - `ListTasks`: the group's task, then the tasks started in it (100 at most, and as fit).
    - `ListGroupMessages` (the extension's; `after`: a seq, `limit`: 1 to 500): the posts
      after `after` (about `AGENTHUB_MAX_PAGE_BYTES` at most), and `nextCursor`, the next one.
    - `CancelTask`: `TaskNotCancelable` (the owner concludes a group).

    A member never receives its own posts. An `open` group admits whoever calls (it joins).
    Refusals are JSON-RPC errors whose `data` is a `google.rpc.ErrorInfo` with the hub's
    problem code (`not-your-turn`, `not-a-member`, …) in `metadata.code`; an `id` string over
    256 characters (echoed in every answer and event) is `InvalidRequest`, with a null `id`.

    **Who**: an agent taking part in the group, with the hub's access token or a token of
    the hub's OAuth endpoint whose `resource` was this endpoint's URL.

    **Errors** (HTTP, not JSON-RPC): `400` (`not-json-rpc`) for a body that is no JSON-RPC
    2.0 request; `401` without a good token; `429` (with `Retry-After`)
    for an agent posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`, or for a stream
    past its open streams; `503` when the replica admits no more streams or the store is
    busy (with `Retry-After`).
    """
    claims, agent, _ = await _caller(db, request, token, group_id, settings, keys)
    try:
        payload = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        payload = service.NOT_JSON
    request_id = service.envelope(payload)  # NotJsonRpc (400) for no JSON-RPC request
    if oversized_id(request_id):  # echoed in every answer and stream event: refused, unechoed
        return _error(None, service.INVALID_REQUEST, f"An id is at most {MAX_ID_CHARS} chars.")
    params = payload.get("params") or {}
    call = _Call(
        db=db,
        group_id=group_id,
        request_id=request_id,
        claims=claims,
        agent=agent,
        recorder=Recorder(claims, ingest, admission),
        streams=streams,
        page_bytes=settings.max_page_bytes,
    )
    method = payload["method"]
    try:
        if method == "SendMessage":
            answer = await call.send(_parsed(params, SendMessageRequest()))
        elif method == "SendStreamingMessage":
            answer = await call.stream(_parsed(params, SendMessageRequest()), None)
        elif method == "SubscribeToTask":
            asked = _parsed(params, SubscribeToTaskRequest())
            after = resume_point(None, last_event_id) if last_event_id else None
            answer = await call.subscribe(asked.id, after)
        elif method == "GetTask":
            answer = await call.get(_parsed(params, GetTaskRequest()))
        elif method == "ListTasks":
            answer = await call.list()
        elif method == LIST_MESSAGES:
            answer = await call.messages(service.page_of(params))
        elif method == "CancelTask":
            answer = _error(
                request_id, service.TASK_NOT_CANCELABLE, "A group's owner concludes it."
            )
        else:
            answer = _error(request_id, service.METHOD_NOT_FOUND, f"Method {method!r} not found.")
    except _BadParams as bad:
        answer = _error(request_id, service.INVALID_PARAMS, str(bad))
    except HubError as refusal:
        if refusal.status in (401, 429, 503):
            raise  # the transport's answer: a problem document (429 and 503: Retry-After)
        answer = JsonBody(service.refused(request_id, refusal))
    if extensions and wire.EXTENSION_URI in extensions:
        answer.headers[EXTENSIONS_HEADER] = wire.EXTENSION_URI  # activated
    return answer


class _BadParams(ValueError):
    pass


def _parsed(params: Any, into: Any) -> Any:
    if not isinstance(params, dict):
        raise _BadParams("params must be an object.")
    try:
        return ParseDict(params, into)
    except ParseError as exc:
        raise _BadParams(f"Invalid params: {exc}") from exc


class _Call:
    """One JSON-RPC request to a group's endpoint, and what it answers with."""

    def __init__(
        self,
        *,
        db: AsyncSession,
        group_id: str,
        request_id: Any,
        claims: AccessTokenClaims,
        agent: Agent,
        recorder: Recorder,
        streams: Streams,
        page_bytes: int,
    ) -> None:
        self.db = db
        self.group_id = group_id
        self.request_id = request_id
        self.claims = claims
        self.agent = agent
        self.recorder = recorder
        self.streams = streams
        self.page_bytes = page_bytes

    def _result(self, result: Any) -> JsonBody:
        return JsonBody({"jsonrpc": "2.0", "id": self.request_id, "result": result})

    async def _taking_part(self) -> tuple[Group, GroupMember]:
        group, member, joined = await service.taking_part(self.db, self.group_id, self.agent)
        if joined:
            await commit(self.db)
        return group, member

    async def _post(self, asked: SendMessageRequest) -> tuple[Group, GroupMember, dict[str, Any]]:
        group, member = await self._taking_part()
        if not asked.message.message_id:
            raise _BadParams("The message needs a messageId.")
        earlier = await service.earlier_post(self.db, self.agent.id, asked.message.message_id)
        post = service.group_post(
            asked.message,
            agent=self.agent,
            group=group,
            member=member,
            sent_at=service.sent_at_of(earlier),
        )
        service.check_retry(earlier, post)
        await self.db.close()  # the post is written by the hub's writer, not this session
        body, _ = await self.recorder.one(post, group_id=self.group_id)
        return group, member, dict(body)

    def _posted(self, group: Group, body: dict[str, Any]) -> dict[str, Any]:
        message = wire.a2a_message(
            body,
            group_id=group.id,
            context_id=group.session_id,
            names={self.agent.id: self.agent.name},
        )
        task = service.task_json(group)
        task["status"]["message"] = message
        task["metadata"][wire.EXTENSION_URI]["seq"] = body.get("seq")
        return task

    async def send(self, asked: SendMessageRequest) -> Response:
        group, _, body = await self._post(asked)
        return self._result({"task": self._posted(group, body)})  # SendMessageResponse

    async def stream(self, asked: SendMessageRequest, after: int | None) -> Response:
        group, member, body = await self._post(asked)
        first = {"task": self._posted(group, body)}
        return await self._open(group, member, int(body.get("seq") or 0), first)

    async def subscribe(self, task_id: str, after: int | None) -> Response:
        if task_id != self.group_id:
            raise TaskNotFound(f"No task {task_id!r} in this group.")
        group, member = await self._taking_part()
        start = group.last_seq if after is None else after
        task = service.task_json(group)
        task["metadata"][wire.EXTENSION_URI]["seq"] = start
        return await self._open(group, member, start, {"task": task})

    async def get(self, asked: GetTaskRequest) -> Response:
        group, _ = await self._taking_part()
        if asked.id != self.group_id:  # a task started in the conversation
            found = await service.group_tasks(self.db, group, asked.id)
            if not found:
                raise TaskNotFound(f"No task {asked.id!r} in this group.")
            return self._result(found[0])
        length = asked.history_length if asked.HasField("history_length") else 0
        history = await service.history(self.db, group, length, self.page_bytes)
        return self._result(service.task_json(group, history))

    async def list(self) -> Response:
        group, _ = await self._taking_part()
        started = await service.group_tasks(self.db, group, max_bytes=self.page_bytes)
        tasks = [service.task_json(group), *started]
        return self._result({"tasks": tasks, "pageSize": len(tasks), "totalSize": len(tasks)})

    async def messages(self, page: tuple[int, int]) -> Response:
        group, _ = await self._taking_part()
        return self._result(await service.messages_page(self.db, group, page, self.page_bytes))

    async def _open(
        self, group: Group, member: GroupMember, after: int, first: dict[str, Any]
    ) -> Response:
        """The group's stream after ``after``, as this request's A2A events."""
        group_id, context_id = group.id, group.session_id
        last_seq = group_access.final_seq(group)
        ends_after = member.active_since_seq
        names = await service.member_names(self.db, group_id)
        await self.db.close()  # a stream holds no SQL connection
        request_id = orjson.dumps(self.request_id)
        factory = self.streams.session_factory

        async def backlog(session: AsyncSession, last: int, limit: int) -> list[Delivery]:
            return await group_backlog(session, group_id, last, limit)

        async def prepare(batch: list[Delivery]) -> None:
            if not batch or (A2A_VIEW in batch[0].views and A2A_VIEW in batch[-1].views):
                return  # encoded already, by another A2A stream of the group
            unknown = {d.sender_id for d in batch if d.sender_id and d.sender_id not in names}
            if unknown:
                async with factory() as session:
                    names.update(await service.names(session, unknown))

        def encode(delivery: Delivery) -> bytes:  # per subscriber and event: keep it lean
            parts = delivery.views.get(A2A_VIEW)
            if parts is None:
                parts = delivery.views[A2A_VIEW] = wire.frame_parts(
                    delivery, group_id=group_id, context_id=context_id, names=names
                )
            head, tail = parts
            return head + request_id + tail

        head, tail = wire.frame_halves(None, orjson.dumps(first))
        return await self.streams.open(
            channel=group_channel(group_id),
            after=after,
            backlog=backlog,
            claims=self.claims,
            ends_after_seq=ends_after,
            last_seq=last_seq,
            encode=encode,
            prepare=prepare,
            first=head + request_id + tail,
        )
