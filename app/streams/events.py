"""Numbered events: the per-group and per-inbox counters, their rows, and their frames.

An event is written inside the caller's transaction and *staged* in that transaction's
``Outbox``; it reaches the broker only after that transaction commits, published by whoever
owns the transaction (``records.unit_of_work``: the writer's batches, and ``commit`` for
the request path's and the background jobs' ORM sessions), so nothing uncommitted is ever
delivered, and a rolled-back transaction (its session let go) delivers nothing.
"""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.base import WireModel
from agenthub.protocol.groups import ConversationState
from app.agents.models import Agent
from app.broker import Broker, Delivery
from app.broker.base import ENDS_ALL
from app.db import hub_session
from app.groups.models import Group, GroupEvent
from app.inbox.models import InboxEvent
from app.models.types import utcnow
from app.operator.events import (
    OPERATOR_CHANNEL,
    group_event_summary,
    message_summary,
    operator_delivery,
)
from app.prepared import Prepared, rows, run_many
from app.records.models import StoredMessage

ENDING_STATES = frozenset({"left", "removed"})


def group_channel(group_id: str) -> str:
    return f"group:{group_id}"


def inbox_channel(agent_id: str) -> str:
    return f"inbox:{agent_id}"


def encode_frame(seq: int, kind: str, data: bytes, trace: str | None = None) -> bytes:
    """One SSE frame, built once and shared by every subscriber; ``trace``: the
    ``traceparent`` of the event's publish, as a field of its own (EventSource clients
    ignore fields they do not know)."""
    if trace:
        return b"id: %d\nevent: %s\ntraceparent: %s\ndata: %s\n\n" % (
            seq,
            kind.encode(),
            trace.encode(),
            data,
        )
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, kind.encode(), data)


class Outbox:
    """What one transaction will publish once it commits, in the order it was staged.

    The writer's unit of work (``records.unit_of_work``) holds one and publishes it after
    its COMMIT; any other write stages into its ORM session's (``stage``), published by
    ``unit_of_work.commit`` once that session's transaction commits."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[str, Delivery]] = []

    def stage(self, channel: str, delivery: Delivery) -> None:
        """Deliver on ``channel`` once the transaction commits (nothing, if it rolls back)."""
        self.items.append((channel, delivery))

    def tell_operator(self, kind: str, data: dict[str, Any]) -> None:
        """Tell the operator's stream (``operator.events``)."""
        self.stage(OPERATOR_CHANNEL, operator_delivery(kind, data))

    def tell_operator_message(self, body: dict[str, Any]) -> None:
        """A message stored as ``body``, for the operator's stream."""
        self.tell_operator("message", message_summary(body))

    def mark(self) -> int:
        return len(self.items)

    def undo(self, mark: int) -> None:
        """Drop what was staged since ``mark``: a savepoint rolled back."""
        del self.items[mark:]

    def publish(self, broker: Broker | None) -> None:
        """The transaction committed: hand everything staged to the broker, in order."""
        items, self.items = self.items, []
        if broker is not None:
            for channel, delivery in items:
                broker.publish(channel, delivery)


def outbox(db: AsyncSession) -> Outbox:
    """The session's outbox (the unit of work's, for a session it made)."""
    session = hub_session(db)
    if session.outbox is None:
        session.outbox = Outbox()
    found: Outbox = session.outbox
    return found


def stage(db: AsyncSession, channel: str, delivery: Delivery) -> None:
    """Deliver on ``channel`` once the session's transaction commits."""
    outbox(db).stage(channel, delivery)


def tell_operator(db: AsyncSession, kind: str, data: dict[str, Any]) -> None:
    """Tell the operator's stream, once the session's transaction commits."""
    outbox(db).tell_operator(kind, data)


def tell_operator_message(db: AsyncSession, body: dict[str, Any]) -> None:
    """A message stored as ``body``, for the operator's stream."""
    outbox(db).tell_operator_message(body)


def publish_staged(db: AsyncSession) -> None:
    """The session's transaction committed: hand what it staged to the hub's broker."""
    session = hub_session(db)
    staged: Outbox | None = session.outbox
    session.outbox = None
    if staged is not None:
        staged.publish(session.broker)


async def _increment(db: AsyncSession, model: Any, counter: Any, key: Any, value: str) -> int:
    """Add one to a counter column and read it back, in one statement that locks the row."""
    stmt = update(model).where(key == value).values({counter: counter + 1}).returning(counter)
    return int((await db.exec(stmt)).scalar_one())


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


async def _next_inbox_seq(db: AsyncSession, agent_id: str) -> int:
    return await _increment(db, Agent, col(Agent.inbox_seq), col(Agent.id), agent_id)


def _json(data: WireModel | dict[str, Any]) -> dict[str, Any]:
    return data.to_wire() if isinstance(data, WireModel) else data


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
    body = _json(data)
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


async def append_inbox_event(
    db: AsyncSession, agent_id: str, kind: str, data: WireModel | dict[str, Any]
) -> int:
    seq = await _next_inbox_seq(db, agent_id)
    body = _json(data)
    await db.exec(
        insert(InboxEvent).values(
            agent_id=agent_id, seq=seq, kind=kind, data=body, created_at=utcnow()
        )
    )
    stage(db, inbox_channel(agent_id), Delivery(seq, encode_frame(seq, kind, orjson.dumps(body))))
    return seq


_TAKE_INBOX_SEQS = Prepared(
    update(Agent)
    .where(col(Agent.id) == bindparam("agent_id"))
    .values(inbox_seq=col(Agent.inbox_seq) + bindparam("count"))
    .returning(col(Agent.inbox_seq))
)
_INSERT_INBOX = Prepared(insert(InboxEvent))


async def append_inbox_events(
    conn: AsyncConnection, staged: Outbox, events: list[tuple[str, str, dict[str, Any]]]
) -> None:
    """``append_inbox_event`` for many (agent, kind, data) at once, in order, on the writer's
    connection, staged in its outbox: per agent, one statement takes its seqs; one INSERT
    stores them all."""
    if not events:
        return
    counts: dict[str, int] = {}
    for agent_id, _, _ in events:
        counts[agent_id] = counts.get(agent_id, 0) + 1
    next_seq = {}
    for agent_id, count in counts.items():
        params = {"agent_id": agent_id, "count": count}
        last = int((await rows(conn, _TAKE_INBOX_SEQS, params))[0][0])
        next_seq[agent_id] = last - count + 1
    stored, now = [], utcnow()
    for agent_id, kind, body in events:
        seq = next_seq[agent_id]
        next_seq[agent_id] = seq + 1
        stored.append(
            {"agent_id": agent_id, "seq": seq, "kind": kind, "data": body, "created_at": now}
        )
        frame = encode_frame(seq, kind, orjson.dumps(body))
        staged.stage(inbox_channel(agent_id), Delivery(seq, frame))
    await run_many(conn, _INSERT_INBOX, stored)


def message_delivery(
    seq: int, sender_id: str, body: dict[str, Any], trace: str | None = None
) -> Delivery:
    frame = encode_frame(seq, "message", orjson.dumps(body), trace)
    return Delivery(seq, frame, sender_id=sender_id)


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


async def inbox_backlog(db: AsyncSession, agent_id: str, after: int, limit: int) -> list[Delivery]:
    rows = await db.exec(
        select(InboxEvent.seq, InboxEvent.kind, InboxEvent.data)
        .where(col(InboxEvent.agent_id) == agent_id, col(InboxEvent.seq) > after)
        .order_by(col(InboxEvent.seq))
        .limit(limit)
    )
    return [Delivery(s, encode_frame(s, k, orjson.dumps(d))) for s, k, d in rows.all()]
