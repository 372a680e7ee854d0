"""An agent's inbox events: its seq counter (``Agent.inbox_seq``), its event rows
(``InboxEvent``), their frames, and the backlog a stream replays from SQL before it goes
live. Each is staged in the transaction's outbox (``core.outbox``)."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.base import WireModel
from app.agents.models import Agent
from app.broker import Delivery
from app.core.outbox import Outbox, encode_frame, wire_json
from app.core.unit_of_work import stage
from app.inbox.models import InboxEvent
from app.models.types import utcnow
from app.prepared import Prepared, rows, run_many


def inbox_channel(agent_id: str) -> str:
    return f"inbox:{agent_id}"


async def _next_inbox_seq(db: AsyncSession, agent_id: str) -> int:
    """Add one to the agent's counter and read it back, in one statement that locks the row."""
    counter = col(Agent.inbox_seq)
    stmt = update(Agent).where(col(Agent.id) == agent_id).values({counter: counter + 1})
    return int((await db.exec(stmt.returning(counter))).scalar_one())


async def append_inbox_event(
    db: AsyncSession, agent_id: str, kind: str, data: WireModel | dict[str, Any]
) -> int:
    seq = await _next_inbox_seq(db, agent_id)
    body = wire_json(data)
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


async def inbox_backlog(db: AsyncSession, agent_id: str, after: int, limit: int) -> list[Delivery]:
    rows = await db.exec(
        select(InboxEvent.seq, InboxEvent.kind, InboxEvent.data)
        .where(col(InboxEvent.agent_id) == agent_id, col(InboxEvent.seq) > after)
        .order_by(col(InboxEvent.seq))
        .limit(limit)
    )
    return [Delivery(s, encode_frame(s, k, orjson.dumps(d))) for s, k, d in rows.all()]
