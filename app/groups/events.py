"""A group's numbered events: its seq counter (``Group.last_seq``, shared by its posts and
its events), its event rows (``GroupEvent``), their frames, and the backlog a stream replays
from SQL before it goes live. Each is staged in the transaction's outbox (``core.outbox``)."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.base import WireModel
from agenthub.protocol.groups import ConversationState
from app.broker import Delivery
from app.broker.base import ENDS_ALL
from app.core.models import StoredMessage
from app.core.operator_events import group_event_summary
from app.core.outbox import encode_frame, message_delivery, wire_json
from app.core.unit_of_work import stage, tell_operator
from app.groups.models import Group, GroupEvent
from app.models.types import utcnow
from app.prepared import Prepared, rows

ENDING_STATES = frozenset({"left", "removed"})


def group_channel(group_id: str) -> str:
    return f"group:{group_id}"


CONCLUDED = ConversationState.CONCLUSION.value
_TAKE_SEQS = (
    update(Group)
    .where(col(Group.id) == bindparam("group_id"))
    .values(last_seq=col(Group.last_seq) + bindparam("count"))
    .returning(col(Group.last_seq))
)


async def take_group_seqs(db: AsyncSession, group_id: str, count: int) -> int:
    """Take the group's next ``count`` seqs, the last of which is returned; the row lock
    holds later writers until we commit."""
    conn = await db.connection()
    params = {"group_id": group_id, "count": count}
    return int((await conn.execute(_TAKE_SEQS, params)).scalar_one())


async def next_group_seq(db: AsyncSession, group_id: str) -> int:
    return await take_group_seqs(db, group_id, 1)


_TAKE_POST_SEQS = Prepared(_TAKE_SEQS.where(col(Group.conversation_state) != CONCLUDED))


async def take_post_seqs(conn: AsyncConnection, group_id: str, count: int) -> int | None:
    """As ``take_group_seqs``, for posts: ``None`` once the group has concluded. Posts are
    admitted on a plain read of the group's state; a conclusion committed since then (its
    ``state`` event, the group's last) is seen here, under the row's lock."""
    params = {"group_id": group_id, "count": count}
    taken = await rows(conn, _TAKE_POST_SEQS, params)
    return int(taken[0][0]) if taken else None


async def append_group_event(
    db: AsyncSession,
    group_id: str,
    kind: str,
    data: WireModel | dict[str, Any],
    *,
    actor_id: str | None = None,
    subject_id: str | None = None,
) -> int:
    seq = await next_group_seq(db, group_id)
    body = wire_json(data)
    await db.exec(
        insert(GroupEvent).values(
            group_id=group_id,
            seq=seq,
            kind=kind,
            actor_id=actor_id,
            subject_id=subject_id,
            data=body,
            created_at=utcnow(),
        )
    )
    stage(db, group_channel(group_id), _group_event_delivery(seq, kind, subject_id, body))
    summary = group_event_summary(group_id, kind, body)
    if summary is not None:
        tell_operator(db, *summary)
    return seq


def _group_event_delivery(
    seq: int, kind: str, subject_id: str | None, body: dict[str, Any]
) -> Delivery:
    ends_for = None
    if kind == "member" and body.get("state") in ENDING_STATES:
        ends_for = subject_id
    elif kind == "state" and body.get("state") == "conclusion":
        ends_for = ENDS_ALL  # a concluded group's last event: every stream of it ends
    return Delivery(seq, encode_frame(seq, kind, orjson.dumps(body)), ends_for=ends_for)


async def group_backlog(db: AsyncSession, group_id: str, after: int, limit: int) -> list[Delivery]:
    """Up to ``limit`` committed events of the group after ``after``, in seq order."""
    messages = await db.exec(
        select(
            StoredMessage.seq,
            StoredMessage.sender_id,
            StoredMessage.body,
            StoredMessage.trace_context,
        )
        .where(col(StoredMessage.group_id) == group_id, col(StoredMessage.seq) > after)
        .order_by(col(StoredMessage.seq))
        .limit(limit)
    )
    events = await db.exec(
        select(GroupEvent.seq, GroupEvent.kind, GroupEvent.subject_id, GroupEvent.data)
        .where(col(GroupEvent.group_id) == group_id, col(GroupEvent.seq) > after)
        .order_by(col(GroupEvent.seq))
        .limit(limit)
    )
    out = [
        message_delivery(int(s or 0), sender, dict(body), trace)
        for s, sender, body, trace in messages.all()
    ]
    out += [_group_event_delivery(s, k, subject, dict(d)) for s, k, subject, d in events.all()]
    out.sort(key=lambda d: d.seq)
    return out[:limit]
