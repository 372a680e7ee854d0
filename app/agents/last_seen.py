"""When an agent was last seen: noted by every authenticated request and record, written at
most every few seconds per agent, and read as whether it is online."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import bindparam, or_, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from app.agents.models import Agent
from app.core.unit_of_work import saw_agent
from app.models.types import utcnow
from app.prepared import Prepared, run

ONLINE_WINDOW_SECONDS = 60


LAST_SEEN_WRITE_INTERVAL_SECONDS = 10


_SEEN = Prepared(
    update(Agent)
    .where(
        col(Agent.id).in_(bindparam("ids", expanding=True)),
        or_(col(Agent.last_seen_at).is_(None), col(Agent.last_seen_at) < bindparam("stale")),
    )
    .values(last_seen_at=bindparam("now"))
)


async def note_seen(conn: AsyncConnection, agent_ids: Iterable[str]) -> None:
    """``touch_agent`` for many agents in one statement, inside the caller's transaction."""
    ids = list(agent_ids)
    if ids:
        now = utcnow()
        stale = now - timedelta(seconds=LAST_SEEN_WRITE_INTERVAL_SECONDS)
        await run(conn, _SEEN, {"ids": ids, "stale": stale, "now": now})


def touch_agent(session: AsyncSession, agent: Agent) -> None:
    """Note that the agent was seen, writing at most every few seconds per agent: noted on
    the session, written once its transaction has ended (``unit_of_work.write_seen`` says
    why then)."""
    now = utcnow()
    last = agent.last_seen_at
    if last is None or now - last > timedelta(seconds=LAST_SEEN_WRITE_INTERVAL_SECONDS):
        saw_agent(session, agent.id)
        set_committed_value(agent, "last_seen_at", now)  # not a change of the request's


def is_online(agent: Agent, now: datetime | None = None) -> bool:
    if agent.last_seen_at is None:
        return False
    return (now or utcnow()) - agent.last_seen_at < timedelta(seconds=ONLINE_WINDOW_SECONDS)
