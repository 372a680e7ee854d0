"""Use cases of a group's A2A face: who calls (the hub's access token, or a token of the
hub's OAuth endpoint for this group), who may take part (members; an open group admits
whoever asks), a post, the history and the card."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from google.protobuf.json_format import MessageToDict
from pydantic import ValidationError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import Message as GroupPost
from agenthub.protocol.tokens import AccessTokenClaims
from app.a2a_groups import wire
from app.a2a_groups.errors import BadPage, NotAGroupPost, NotJsonRpc
from app.agents.models import Agent
from app.auth import jws
from app.auth.errors import ForeignToken, MalformedToken, TokenExpired
from app.auth.keys import HubKeys
from app.auth.principal import Principal
from app.auth.service import agent_for_claims
from app.auth.tokens import check_access_token_claims
from app.core.models import StoredMessage
from app.errors import HubError
from app.groups import access as group_access
from app.groups.errors import NotAMember
from app.groups.messages import group_bodies, group_page_seqs
from app.groups.models import Group, GroupMember
from app.members import service as member_service
from app.pages import PAGE_BYTES, fitting, stored_size
from app.records.errors import MessageIdReused
from app.records.stored import same_content
from app.tasks.models import Task

A2A_PATH = "/v1/groups/{group_id}/a2a"
MAX_GROUP_TASKS = 100
MAX_HISTORY = 500
"""The most messages one ``GetTask`` shows (``historyLength``); older ones by the
extension's ``ListMessages``."""


def a2a_url(hub_url: str, group_id: str) -> str:
    """The group's A2A JSON-RPC endpoint, and the ``resource`` of its OAuth tokens."""
    return hub_url.rstrip("/") + A2A_PATH.format(group_id=group_id)


def group_of_resource(hub_urls: Iterable[str], resource: str) -> str | None:
    """The group a token request's ``resource`` names (its A2A URL at this hub), if any."""
    for hub_url in hub_urls:
        head = hub_url.rstrip("/") + "/v1/groups/"
        if resource.startswith(head) and resource.endswith("/a2a"):
            group_id = resource[len(head) : -len("/a2a")]
            if group_id and "/" not in group_id:
                return group_id
    return None


async def caller(
    db: AsyncSession, token: str, *, keys: HubKeys, issuer: str, url: str
) -> tuple[AccessTokenClaims, Agent]:
    """The agent a bearer token speaks for, while registered with the key it was bound to:
    the hub's own access token (``aud``: the hub), or one its OAuth token endpoint issued an
    agent for this group (``aud``: the group's A2A ``url``)."""
    if jws.unverified_header(token).get("kid") != keys.kid:
        raise ForeignToken("The token was not signed by this hub's key.")
    raw = jws.verify(token, keys.verifying_key)
    if raw.get("aud") == url and raw.get("client_kind") == "agent":
        claims = _group_claims(raw)
    else:
        claims = check_access_token_claims(raw, issuer=issuer)
    return claims, await agent_for_claims(db, claims)


def _group_claims(raw: dict[str, Any]) -> AccessTokenClaims:
    known = {k: raw[k] for k in ("iss", "iat", "sub", "aud", "exp", "jti", "cnf") if k in raw}
    try:  # an OAuth token has no assertion nonce to echo: its jti stands in
        claims = AccessTokenClaims.model_validate({**known, "nonce": raw.get("jti")})
    except ValueError as exc:
        raise MalformedToken("The token's claims are malformed.") from exc
    if claims.exp <= int(datetime.now(UTC).timestamp()):
        raise TokenExpired("The access token has expired.")
    return claims


async def taking_part(
    db: AsyncSession, group_id: str, agent: Agent
) -> tuple[Group, GroupMember, bool]:
    """The group, the caller's membership (active, or released by the conclusion: it reads)
    and whether it joined now: an open group admits a caller who is not a member yet, as
    ``POST /v1/groups/{id}/applications`` does (the caller commits it)."""
    principal = Principal(agent=agent, is_operator=False)
    group, member = await group_access.visible_group(db, group_id, principal)
    if member is not None and member.state in group_access.READERS:
        return group, member, False
    if group.join_policy != "open":
        raise NotAMember("Only active members of the group may do this.")
    await member_service.apply(db, group_id=group_id, principal=principal, note=None)
    group, member = await group_access.active_group(db, group_id, principal)
    return group, member, True


async def earlier_post(db: AsyncSession, agent_id: str, message_id: str) -> StoredMessage | None:
    """The caller's post of this ``messageId``, if it sent one before: a retry is the same
    post only if it is the same message (``check_retry``), its ``sentAt`` included."""
    rows = await db.exec(
        select(StoredMessage).where(
            col(StoredMessage.sender_id) == agent_id, col(StoredMessage.message_id) == message_id
        )
    )
    return rows.first()


def sent_at_of(earlier: StoredMessage | None) -> str | None:
    sent = dict(earlier.body).get("sentAt") if earlier is not None else None
    return sent if isinstance(sent, str) else None


def check_retry(earlier: StoredMessage | None, post: GroupPost) -> None:
    """A post under a ``messageId`` the caller used before is a retry of that message, or
    refused: another message needs an id of its own (never a second post under one id)."""
    if earlier is not None and not same_content(earlier, post):
        raise MessageIdReused(
            f"The messageId {post.id!r} was used before for another message; give a new "
            "message an id of its own (the same message again is the same post)."
        )


def group_post(
    message: Any,
    *,
    agent: Agent,
    group: Group,
    member: GroupMember,
    sent_at: str | None = None,
) -> GroupPost:
    """An A2A ``Message`` (a2a-sdk's type) as the caller's group post: its ``messageId`` the
    post's id, ``sent_at`` the time of an earlier post under it (``earlier_post``: then the
    same message is the same post), its parts the data items, and from the extension's
    metadata ``mentions`` and ``nextSpeaker``."""
    fields: dict[str, Any] = {}
    if message.HasField("metadata"):
        found = MessageToDict(message.metadata).get(wire.EXTENSION_URI)
        fields = found if isinstance(found, dict) else {}
    body: dict[str, Any] = {
        "type": "message",
        "id": message.message_id,
        "sentAt": sent_at or datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "senderRole": "leader" if member.role in ("owner", "admin") else "partner",
        "senderId": agent.id,
        "groupId": group.id,
        "sessionId": group.session_id,
        "dataItems": wire.posted_items(message.parts),
    }
    for name in ("mentions", "nextSpeaker"):
        if fields.get(name) is not None:
            body[name] = fields[name]
    try:
        return GroupPost.model_validate(body)
    except ValidationError as exc:
        where = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise NotAGroupPost(f"The message does not make a group post: {where}") from exc


async def names(db: AsyncSession, agent_ids: Iterable[str]) -> dict[str, str]:
    wanted = sorted(set(agent_ids))
    if not wanted:
        return {}
    rows = await db.exec(select(Agent.id, Agent.name).where(col(Agent.id).in_(wanted)))
    return {agent_id: name for agent_id, name in rows.all()}


async def member_names(db: AsyncSession, group_id: str) -> dict[str, str]:
    """The names of every agent that was ever a member (a stream's senders)."""
    members = await group_access.members_of(db, group_id)
    return await names(db, (m.agent_id for m in members))


async def active_member_names(db: AsyncSession, group_id: str) -> dict[str, str]:
    members = await group_access.members_of(db, group_id)
    active = [m.agent_id for m in members if m.state == "active"]
    found = await names(db, active)
    return {agent_id: found[agent_id] for agent_id in active if agent_id in found}


def page_of(params: Any) -> tuple[int, int]:
    """``ListGroupMessages``' ``after`` (a seq, 0 by default) and ``limit`` (1 to 500)."""
    after = params.get("after", 0) if isinstance(params, dict) else None
    limit = params.get("limit", 50) if isinstance(params, dict) else None
    for name, value, low, high in (("after", after, 0, 2**53), ("limit", limit, 1, MAX_HISTORY)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadPage(f"{name} must be an integer from {low} to {high}.")
    assert isinstance(after, int) and isinstance(limit, int)
    return after, limit


async def messages_page(
    db: AsyncSession, group: Group, page: tuple[int, int], max_bytes: int = PAGE_BYTES
) -> dict[str, Any]:
    """The extension's ``ListGroupMessages`` (``page``: its ``after`` and ``limit``): the
    group's posts after seq ``after``, oldest first, at most ``limit`` (1 to ``MAX_HISTORY``)
    and about ``max_bytes``, as A2A messages; ``nextCursor`` the ``after`` of the next page
    (absent on the last)."""
    after, limit = page
    seqs, more = await group_page_seqs(db, group.id, after=after, limit=limit, max_bytes=max_bytes)
    bodies = [body for _, body in await group_bodies(db, group.id, seqs)]
    known = await names(db, (str(b.get("senderId", "")) for b in bodies))
    listed: dict[str, Any] = {
        "messages": [
            wire.a2a_message(b, group_id=group.id, context_id=group.session_id, names=known)
            for b in bodies
        ]
    }
    if more:
        listed["nextCursor"] = seqs[-1]
    return listed


async def history(
    db: AsyncSession, group: Group, length: int, max_bytes: int = PAGE_BYTES
) -> list[dict[str, Any]]:
    """The group's last ``length`` posts (at most ``MAX_HISTORY``, and as many of the last
    as fit in about ``max_bytes``) as A2A messages, oldest first; older ones are read with
    ``ListGroupMessages``."""
    if length <= 0:
        return []
    length = min(length, MAX_HISTORY)
    sizes = await db.exec(
        select(StoredMessage.seq, stored_size(StoredMessage.body))
        .where(col(StoredMessage.group_id) == group.id)
        .order_by(col(StoredMessage.seq).desc())
        .limit(length)
    )
    seqs, _ = fitting(list(sizes.all()), limit=length, max_bytes=max_bytes)
    bodies = [body for _, body in await group_bodies(db, group.id, seqs)]
    known = await names(db, (str(b.get("senderId", "")) for b in bodies))
    return [
        wire.a2a_message(b, group_id=group.id, context_id=group.session_id, names=known)
        for b in bodies
    ]


async def group_tasks(
    db: AsyncSession, group: Group, task_id: str | None = None, max_bytes: int = PAGE_BYTES
) -> list[dict[str, Any]]:
    """The tasks started in the group's conversation (``task_id``: that one only) as A2A
    tasks, oldest first (at most ``MAX_GROUP_TASKS``, and as many as their products fit in
    about ``max_bytes``)."""
    in_group = (col(Task.session_id) == group.session_id, col(Task.group_id) == group.id)
    query = select(Task).where(*in_group)
    if task_id is not None:
        query = query.where(col(Task.id) == task_id)
    else:
        order = (col(Task.created_at), col(Task.id))
        sizes = select(Task.id, stored_size(Task.products)).where(*in_group)
        found = await db.exec(sizes.order_by(*order).limit(MAX_GROUP_TASKS))
        ids, _ = fitting(list(found.all()), limit=MAX_GROUP_TASKS, max_bytes=max_bytes)
        query = query.where(col(Task.id).in_(ids))
    rows = await db.exec(query.order_by(col(Task.created_at), col(Task.id)).limit(MAX_GROUP_TASKS))
    return [wire.group_task_of(task) for task in rows.all()]


def task_json(group: Group, history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return wire.group_task(
        group_id=group.id,
        context_id=group.session_id,
        state=wire.task_state(group.conversation_state),
        last_seq=group.last_seq,
        history=history or (),
        at=group.updated_at,
    )


INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32600, -32601, -32602
TASK_NOT_FOUND, TASK_NOT_CANCELABLE, UNSUPPORTED = -32001, -32002, -32004


NOT_JSON = object()
"""What ``envelope`` is given for a body that is not JSON."""


def envelope(payload: Any) -> Any:
    """A JSON-RPC 2.0 request's id; ``NotJsonRpc`` (400) for a body that is none
    (``wire.JSONRPC_REQUEST_BODY``): not JSON, a batch, no ``jsonrpc`` 2.0 or ``method``, an
    ``id`` or ``params`` of the wrong type."""
    if payload is NOT_JSON:
        raise NotJsonRpc("The body is not JSON: a JSON-RPC 2.0 request is.")
    if not isinstance(payload, dict):
        raise NotJsonRpc("A request is one JSON-RPC 2.0 object (no batches).")
    request_id = payload.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int | None):
        raise NotJsonRpc("A JSON-RPC id is a string, an integer or null.")
    if payload.get("jsonrpc") != "2.0" or not isinstance(payload.get("method"), str):
        raise NotJsonRpc('A JSON-RPC 2.0 request has jsonrpc "2.0" and a method.')
    if not isinstance(payload.get("params", {}), dict):
        raise NotJsonRpc("A JSON-RPC request's params are an object here.")
    return request_id


def rpc_error(request_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def refused(request_id: Any, refusal: HubError) -> dict[str, Any]:
    """A hub refusal as A2A's JSON-RPC error: an unknown group is ``TaskNotFound``, bad
    input ``InvalidParams``, any other (``not-a-member``, ``not-your-turn``, a mute, a
    concluded group) ``UnsupportedOperation``; its problem code in ``data``."""
    code = {404: TASK_NOT_FOUND, 400: INVALID_PARAMS, 422: INVALID_PARAMS}.get(
        refusal.status, UNSUPPORTED
    )
    return rpc_error(request_id, code, refusal.detail, refusal_data(refusal))


def refusal_data(error: HubError) -> list[dict[str, Any]]:
    """A hub refusal as a JSON-RPC error's ``data`` (A2A v1.0: a ``google.rpc.ErrorInfo``),
    the problem's code in ``metadata``."""
    return [
        {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": error.code.upper().replace("-", "_").replace(".", "_"),
            "domain": "agenthub.dev",
            "metadata": {"code": error.code, "status": str(error.status), "detail": error.detail},
        }
    ]
