"""Sessions and their point-to-point message history."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Body, Response, status

from agenthub.protocol.messages import AnyMessage
from agenthub.protocol.sessions import (
    BatchResult,
    MessageBatch,
    MessagePage,
    RelayedAnswer,
    SessionCreate,
    SessionPage,
    SessionsBatch,
    SessionUpdate,
    SessionView,
)
from app.api.params import Cursor, Limit, SessionIdPath
from app.api.problems import problem_responses
from app.api.routing import JsonBody, hub_router
from app.deps import (
    CurrentAgent,
    PrincipalDep,
    RecorderDep,
    SessionDep,
    SettingsDep,
)
from app.errors import HubError, NotFound, Unauthenticated, problem_body
from app.records import messages as message_service
from app.records.errors import MisaddressedMessage
from app.records.record import Outcome
from app.sessions import service
from app.sessions.bridges import BridgeOpen

router = hub_router(prefix="/v1/sessions", tags=["sessions"])


SESSION_EXAMPLE = {
    "title": "sqrt(9!)",
    "goal": "calculate sqrt(9!)",
    "receivers": [
        {"agentId": "1.2.156.3088.1.AGH.CALC", "mode": "p2p", "params": {"method": "rpc"}},
        {"agentId": "1.2.156.3088.1.AGH.CHECKER", "mode": "group"},
    ],
}
MESSAGE_EXAMPLE = {
    "type": "task-command",
    "id": "cmd-1",
    "sentAt": "2026-11-30T12:00:00Z",
    "senderRole": "leader",
    "senderId": "1.2.156.3088.1.AGH.LEADER",
    "command": "start",
    "taskId": "task-1",
    "partnerId": "1.2.156.3088.1.AGH.PARTNER",
    "dataItems": [{"type": "text", "text": "calculate sqrt(9!)"}],
}


@router.post(
    "", status_code=status.HTTP_201_CREATED, responses=problem_responses(400, 401, 409, 413, 422)
)
async def create_session(
    body: Annotated[SessionCreate, Body(openapi_examples={"hybrid": {"value": SESSION_EXAMPLE}})],
    caller: CurrentAgent,
    db: SessionDep,
    response: Response,
) -> SessionView:
    """Open a session: the caller is its leader (`sender`) and names its `receivers`, each
    reached point to point (`p2p`, with optional `params` such as the AIP method) or through
    a group (`group`), or both (hybrid: the same agent once in each mode, each with its own
    `params`). A receiver's mode binds it: one declared `group` only is no partner of the
    session's point-to-point tasks, one declared `p2p` only is not placed in its groups.
    The hub picks the `id` unless the body carries one. Answers `201` with the session and a
    `Location` header.

    A `bridge` session records a task the leader serves for a caller of another protocol
    (`protocol: "a2a"`, the caller's `contextId`, and `callerId` when the caller proved to be
    a registered agent): the caller records nothing, so the leader records both sides, its
    caller's commands as the task's leader and its own answers as its partner. Its only
    receiver is the leader itself, in mode `p2p`; its tasks name the leader as their partner.

    **Who**: an agent, which becomes the leader.

    **Errors**: `409` when the `id` is taken; `422` for an unregistered receiver, one
    repeated in the same mode, or the leader among the receivers (of a session that is no
    bridge), or (`bridge-receivers`) a bridge session with any receivers but the leader
    alone in mode `p2p`, or an unregistered `callerId`.
    """
    view = await service.create_session(db, leader=caller, body=body)
    response.headers["Location"] = f"/v1/sessions/{view.id}"
    return view


@router.get("", responses=problem_responses(400, 401, 422))
async def list_sessions(
    caller: CurrentAgent,
    db: SessionDep,
    state: Literal["open", "closed"] | None = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> SessionPage:
    """The sessions the caller takes part in (as leader or receiver), optionally only the
    `open` or the `closed` ones; the answer pages with `limit` and the previous page's
    `nextCursor`.

    **Who**: an agent.

    **Errors**: `400` for a cursor this hub did not hand out; `422` for a bad parameter.
    """
    return await service.list_sessions(
        db, agent_id=caller.id, state=state, limit=limit, cursor=cursor
    )


@router.get("/{sessionId}", responses=problem_responses(401, 404, 422))
async def get_session(
    session_id: SessionIdPath, principal: PrincipalDep, db: SessionDep
) -> SessionView:
    """One session: its leader, its receivers (with their endpoints and modes), state, title
    and goal.

    **Who**: a participant of the session; or the operator, who reads every session.

    **Errors**: `404` for an unknown session, or one the caller takes no part in.
    """
    await service.readable_session(db, session_id, principal)
    return await service.session_view(db, session_id)


@router.patch("/{sessionId}", responses=problem_responses(400, 401, 403, 404, 409, 413, 422))
async def update_session(
    session_id: SessionIdPath, body: SessionUpdate, caller: CurrentAgent, db: SessionDep
) -> SessionView:
    """Change a session: `title`, `goal`, `receivers` (the whole list), or close it with
    `{"state": "closed"}` (closed stays closed: nothing more is recorded in it). Closing
    releases the session: each task still open gets `releasedAt` (its `state` stays) and a
    `task.released` event goes to its partner's and leader's inboxes (and its group's
    stream); its groups move to `conclusion`.

    **Who**: the session's leader.

    **Errors**: `400` for a patch that changes nothing; `403` for another participant;
    `404` for a session the caller takes no part in; `409` for a change to a closed session;
    `422` for a bad receiver, or (`bridge-receivers`) any change of a bridge session's.
    """
    return await service.update_session(db, session_id=session_id, caller=caller, body=body)


@router.post(
    "/{sessionId}/messages",
    status_code=status.HTTP_201_CREATED,
    response_model=AnyMessage,
    responses={
        200: {
            "description": "The same message was posted before: the stored message",
            "model": AnyMessage,
        },
        202: {
            "description": "Stored; its task move waits for the task, or for a move that allows it",
            "model": AnyMessage,
        },
        **problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
    },
)
async def post_session_message(
    session_id: SessionIdPath,
    message: Annotated[AnyMessage, Body(openapi_examples={"start": {"value": MESSAGE_EXAMPLE}})],
    recorder: RecorderDep,
) -> Response:
    """Record a point-to-point message of the session (any AIP `type`: `message`,
    `task-command`, `task-result`, `task-status-update`, …), as the sender exchanged it with
    its partner: `201` with the stored message. Idempotent: the same message again (the
    same `id` from the same sender, with the same content) is `200` with the message stored
    the first time; another message under an `id` its sender used in this session is a
    record of its own (acps-sdk answers every command of a task under one `id`).

    A task message moves its task as the AIP state table allows. The task's messages are
    folded in the order they were sent (`sentAt`), whatever order they arrive in, so the
    leader's and the partner's records (or a leader's alone) give the same task: a `start`
    command creates the task, naming its partner in `partnerId` (or mentioning exactly one
    agent); so does the partner's first report of a task not seen yet (led by the session's
    leader). A move the task's state does not allow yet is stored and answered `202`: it
    goes in once a move that allows it arrives. Recording a move the task already made (the
    other side's record of it) is a `201` that changes nothing.

    **Who**: a participant of the session, as the message's `senderId`.

    **Errors**: `403` when `senderId` is not the caller; `404` for a session the caller
    takes no part in; `409` with the problem's `type` ending in `session-closed`,
    `message-id-reused` (this sender used the id elsewhere), `task-exists` (another leader's
    or partner's task has that id here), `wrong-task-role` (only the task's leader commands
    it, only its partner reports), `illegal-task-move` (a move no state the task can still
    reach allows: it has ended, or gone past it) or `task-busy` (it kept moving under this
    message: send it again); `422` for a message that does not fit (another `sessionId`, a
    `groupId`, a start without a partner, a bad data item), `not-a-p2p-receiver` for a
    task with a receiver declared in group mode only; `429` (with `Retry-After`) for an agent
    posting faster than `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. A refused message is not
    stored.
    """
    body, status_code = await recorder.one(message, session_id=session_id)
    return JsonBody(body, status_code=status_code)


@router.post(
    "/messages:batch",
    response_model=BatchResult,
    responses=problem_responses(401, 404, 413, 422, 429),
)
async def post_sessions_messages_batch(batch: SessionsBatch, recorder: RecorderDep) -> Response:
    """Record up to 100 point-to-point messages of any of the caller's sessions in one
    request (an agent's recorder, whose sessions' records queue up together), each in the
    session its `sessionId` names, as `POST /v1/sessions/{sessionId}/messages:batch` records
    its items and answers with their outcomes (an item that names no session is its `422`
    `misaddressed-message`).

    `bridges` names bridge sessions the caller leads (see `POST /v1/sessions`), by id: each
    is opened first, in the same transaction as the items, unless a session with that id is
    there already (kept as it is). A bridge opens a session for every context its callers
    begin, this way, with its first records. A bridge refused (its `callerId` no registered
    agent, `unregistered-agent`, or no application the operator registered,
    `unknown-bridge-caller`) opens nothing, and is the `422` of each item of its session.

    **Who**: an agent, as every item's `senderId`: each session's participant, or the
    leader of a bridge it opens.

    **Errors** of the whole request: `404` when the caller takes part in none of the
    items' sessions; `422` for a body that is no batch (no items, more than 100, an item of
    no message type, a bridge that does not fit); `429` as for a session's batch.
    """
    recorder.admission.posts_of(recorder.claims.sub, len(batch.items))
    records = [recorder.record(m, session_id=m.session_id) for m in batch.items]
    for record in records:
        if record.session_id is None:
            record.error = MisaddressedMessage("An item here names its session (sessionId).")
    claims = recorder.claims
    key = claims.cnf.get("jkt")
    opens = [BridgeOpen(i, claims.sub, key, b) for i, b in batch.bridges.items()]
    outcomes = await recorder.ingest.many(records, opens)
    return JsonBody({"items": [_item(outcome) for outcome in _whole(outcomes)]})


@router.post(
    "/{sessionId}/messages:batch",
    response_model=BatchResult,
    responses=problem_responses(400, 401, 404, 413, 422, 429),
)
async def post_session_messages_batch(
    session_id: SessionIdPath,
    batch: MessageBatch,
    recorder: RecorderDep,
) -> Response:
    """Record up to 100 point-to-point messages of the session in one request (a recorder
    catching up), in order: each item is recorded as `POST …/messages` would record it, on
    its own, and `items` says what became of each, in the same order: its `status` (`201`,
    `202`, `200` for a message stored before, or the 4xx that call would answer) with the
    stored `message`, or the `problem`. Idempotent per item on (`senderId`, `id`, content),
    so a batch sent again changes nothing.

    **Who**: a participant of the session, as every item's `senderId`.

    **Errors** of the whole request: `404` for a session the caller takes no part in; `422`
    for a body that is no batch (no items, more than 100, an item of no message type);
    `429` (with `Retry-After`) when its items take the caller past
    `AGENTHUB_POSTS_PER_SECOND_PER_AGENT`. An item's own refusal is in its outcome.
    """
    recorder.admission.posts_of(recorder.claims.sub, len(batch.items))
    records = [recorder.record(m, session_id=session_id) for m in batch.items]
    outcomes = await recorder.ingest.many(records)
    return JsonBody({"items": [_item(outcome) for outcome in _whole(outcomes)]})


def _whole(outcomes: list[Outcome | HubError]) -> list[Outcome | HubError]:
    """A refusal of who the caller is (401, or 404: not in the session) is every item's,
    and so the whole request's."""
    first = outcomes[0]
    if isinstance(first, Unauthenticated | NotFound) and all(
        type(o) is type(first) for o in outcomes
    ):
        raise first
    return outcomes


def _item(outcome: Outcome | HubError) -> dict[str, Any]:
    if isinstance(outcome, HubError):
        problem = problem_body(outcome.status, outcome.detail, code=outcome.code)
        return {"status": outcome.status, "problem": problem}
    body, status_code = outcome
    return {"status": status_code, "message": body}


@router.post(
    "/{sessionId}/answers",
    status_code=status.HTTP_201_CREATED,
    response_model=AnyMessage,
    responses={
        200: {"description": "This answer was recorded before: the stored record"},
        202: {"description": "Recorded; its task move waits for one that allows it"},
        **problem_responses(400, 401, 404, 409, 413, 422, 429),
    },
)
async def post_session_answer(
    session_id: SessionIdPath,
    body: RelayedAnswer,
    recorder: RecorderDep,
) -> Response:
    """Record a partner's answer to one of the caller's calls, for a partner that does not
    record at the hub itself (an acps-sdk server): `answer` is the answer's HTTP body exactly
    as received (a JSON-RPC response whose `result` is a TaskResult), `signature` its
    `X-Agent-Signature` and `nonce` the call's nonce, when it had them.

    A signature that verifies with the partner's registered key (for this caller, over these
    bytes) makes the record the partner's own, stored under its id (`verified: true`).
    Without one the record is the caller's report of the partner's state
    (`verified: false`, its id prefixed `relayed:`, or the partner's own for an id too long
    to take the prefix). Either way it moves the task as the partner's report would; the
    stored body says who relayed it (`relayedBy`). Statuses as for `POST …/messages`:
    `201`, `202` when the move waits, `200` for an answer recorded before (another answer
    under an id the partner used is a record of its own).

    **Who**: the leader of the answer's task (a participant of the session), for a partner
    that takes part in it.

    **Errors**: `404` for a session the caller takes no part in; `409` as for messages
    (`session-closed`, `illegal-task-move`, …); `422` for an answer that is no TaskResult,
    is for another session, or a task the caller does not lead with that partner.
    """
    stored, status_code = await recorder.one(None, session_id=session_id, answer=body)
    return JsonBody(stored, status_code=status_code)


@router.get("/{sessionId}/messages", responses=problem_responses(400, 401, 404, 422))
async def list_session_messages(
    session_id: SessionIdPath,
    principal: PrincipalDep,
    db: SessionDep,
    settings: SettingsDep,
    after: Cursor = None,
    limit: Limit = 50,
) -> MessagePage:
    """The session's point-to-point messages, oldest first, as stored (with what the hub
    adds: `sessionId`, `taskId`, `receivedAt`); pass the previous page's `nextCursor` as
    `after` for the next.

    **Who**: a participant of the session; or the operator, who reads every session (it
    records nothing: posting stays the participants').

    **Errors**: `400` for a cursor this hub did not hand out; `404` for a session the
    caller takes no part in.
    """
    return await message_service.list_session_messages(
        db,
        principal=principal,
        session_id=session_id,
        after=after,
        limit=limit,
        max_bytes=settings.max_page_bytes,
    )
