"""Deregistering an agent: it leaves the registry, its groups and its sessions at once.

Its tokens stop working at the next request (the registry row is marked deleted). Its open
streams on this replica end before anything is changed (``end_streams``: nothing the
deregistration writes, its own membership-ended events included, reaches them), and on the
other replicas within a keep-alive period (``services.presence``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel.ext.asyncio.session import AsyncSession

from app.services.agents import retire_agent
from app.services.members import end_memberships_of
from app.services.sessions import end_places_of


async def deregister(
    db: AsyncSession,
    *,
    agent_id: str,
    caller_id: str | None,
    is_operator: bool,
    end_streams: Callable[[], None] = lambda: None,
) -> None:
    await retire_agent(db, agent_id=agent_id, caller_id=caller_id, is_operator=is_operator)
    end_streams()  # the caller may deregister it: its streams end before anything is written
    await end_memberships_of(db, agent_id)
    await end_places_of(db, agent_id)
    await db.flush()
