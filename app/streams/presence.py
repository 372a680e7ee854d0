"""Who holds streams in this process: their presence, and the end of revoked streams.

Every open stream holds a ``StreamLease`` for the token it was opened with. One sweep per
keep-alive period, for the whole process:

- marks every agent holding a stream as seen, with one UPDATE (not one write per stream:
  2,000 streams made 2,000 writes every 15 s);
- reads those agents back and ends the lease of every stream whose agent was deregistered or
  whose token's key (``cnf.jkt``) is no longer the agent's. Every replica sweeps, so a
  deregistration or key rotation made on any of them ends the streams on all of them within
  one period; the replica that made it ends its own at once (``revoke``).

A lease also ends when its token expires or the stream has lasted its longest
(``AGENTHUB_STREAM_MAX_SECONDS``); the stream's wait never outlasts it. The process holds at
most ``AGENTHUB_MAX_STREAMS`` leases, an agent ``AGENTHUB_MAX_STREAMS_PER_AGENT``: on all
replicas together when the broker is Redis (``RedisLeases``; renewed on every sweep), else in
this process. The client resumes with ``Last-Event-ID`` and a fresh token; a revoked one gets
its 401 then.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col

from app.agents.models import Agent
from app.agents.service import CURRENT_KEYS
from app.broker import Subscription
from app.models.types import utcnow
from app.stopping import stop
from app.streams.errors import ReplicaFull, TooManyStreams

if TYPE_CHECKING:
    from app.broker.leases import RedisLeases

logger = logging.getLogger(__name__)

SWEEP_CHUNK = 500  # ids per statement (SQLite allows 32,766 parameters; keep them small)
OPERATOR = "(operator)"
"""Who holds the operator's streams: no agent (no agent id has parentheses), so the sweep
neither marks it seen nor looks for its key; its streams count as an agent's do."""


class StreamLease:
    """One open stream's right to go on: until its token expires or is revoked."""

    __slots__ = ("agent_id", "ended", "expires_at", "key_thumbprint", "name", "subscription")

    def __init__(self, agent_id: str, key_thumbprint: str | None, expires_at: float) -> None:
        self.name = uuid.uuid4().hex  # its member in the shared count
        self.agent_id = agent_id
        self.key_thumbprint = key_thumbprint
        self.expires_at = expires_at
        self.ended = False
        self.subscription: Subscription | None = None

    def seconds_left(self) -> float:
        return self.expires_at - time.time()

    def valid(self) -> bool:
        return not self.ended and self.seconds_left() > 0

    def end(self) -> None:
        self.ended = True
        if self.subscription is not None:
            self.subscription.wake()


class Presence:
    def __init__(
        self,
        engine: AsyncEngine,
        *,
        interval_seconds: float,
        max_streams: int = 10_000,
        max_streams_per_agent: int = 16,
        shared: RedisLeases | None = None,
    ) -> None:
        self.engine = engine
        self.shared = shared
        self.interval = interval_seconds
        self.max_streams = max_streams
        self.max_streams_per_agent = max_streams_per_agent
        self._total = 0
        self._leases: dict[str, set[StreamLease]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._failing = False
        self._giving_back: set[asyncio.Task[None]] = set()
        self._emptied: dict[str, asyncio.Event] = {}  # agents someone waits to see go

    async def hold(
        self, agent_id: str, key_thumbprint: str | None, expires_at: float
    ) -> StreamLease:
        """A lease for a new stream; 429 past the agent's share, 503 when the process is full."""
        held = self._leases.get(agent_id, ())
        if len(held) >= self.max_streams_per_agent:
            raise self._too_many(len(held))
        if self._total >= self.max_streams:
            raise ReplicaFull(
                "This replica holds as many streams as it may; try again (or another one).",
                headers={"Retry-After": "5"},
            )
        lease = StreamLease(agent_id, key_thumbprint, expires_at)
        if self.shared is not None:
            everywhere = await self.shared.take(agent_id, lease.name, self.max_streams_per_agent)
            if everywhere is not None:
                raise self._too_many(everywhere)
        self._leases[agent_id].add(lease)
        self._total += 1
        return lease

    @staticmethod
    def _too_many(held: int) -> TooManyStreams:
        return TooManyStreams(
            f"This agent holds {held} streams, its most; close one first.",
            headers={"Retry-After": "5"},
        )

    def release(self, lease: StreamLease) -> None:
        held = self._leases.get(lease.agent_id)
        if held is not None and lease in held:
            held.discard(lease)
            self._total -= 1
            if not held:
                del self._leases[lease.agent_id]
                emptied = self._emptied.pop(lease.agent_id, None)
                if emptied is not None:
                    emptied.set()
            if self.shared is not None:
                task = asyncio.get_running_loop().create_task(
                    self.shared.give_back(lease.agent_id, lease.name)
                )
                self._giving_back.add(task)
                task.add_done_callback(self._giving_back.discard)

    def revoke(self, agent_id: str, *, keep_thumbprint: str | None = None) -> None:
        """End the agent's streams here and now (those of ``keep_thumbprint``'s key stay)."""
        for lease in list(self._leases.get(agent_id, ())):
            if keep_thumbprint is None or lease.key_thumbprint != keep_thumbprint:
                lease.end()

    async def gone(self, agent_id: str, *, timeout: float) -> bool:
        """Wait until none of the agent's streams is open here; False if ``timeout`` passed
        first (a stream stuck in a send: it writes nothing more, its lease has ended)."""
        if not self._leases.get(agent_id):
            return True
        emptied = self._emptied.setdefault(agent_id, asyncio.Event())
        try:
            async with asyncio.timeout(timeout):
                await emptied.wait()
        except TimeoutError:
            return False
        return True

    def _names(self, agent_id: str) -> set[str]:
        return {lease.name for lease in self._leases.get(agent_id, ())}

    def held(self) -> int:
        return self._total

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="stream-presence")

    async def close(self) -> None:
        await stop(self._task)
        if self._giving_back:
            await asyncio.wait(self._giving_back, timeout=2)
        if self.shared is not None:
            await self.shared.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except Exception as exc:  # the store is away: streams go on, presence waits
                if not self._failing:
                    logger.warning("checking open streams' agents failed: %s", exc)
                self._failing = True
            else:
                self._failing = False

    async def sweep(self) -> None:
        for lease in [lease for leases in self._leases.values() for lease in leases]:
            if lease.seconds_left() <= 0:
                lease.end()
        if self.shared is not None:
            missing = await self.shared.renew(
                [
                    (agent_id, [lease.name for lease in leases])
                    for agent_id, leases in self._leases.items()
                ]
            )
            # Redis lost them (restarted, or frozen past their lapse): those still open here
            # count again; one released meanwhile is not put back (its give-back follows)
            open_here = [
                (agent_id, [name for name in names if name in self._names(agent_id)])
                for agent_id, names in missing
            ]
            if any(names for _, names in open_here):
                await self.shared.renew(open_here, add=True)
        agents = [agent_id for agent_id in self._leases if agent_id != OPERATOR]
        for start in range(0, len(agents), SWEEP_CHUNK):
            await self._sweep(agents[start : start + SWEEP_CHUNK])

    async def _sweep(self, agent_ids: Iterable[str]) -> None:
        ids = list(agent_ids)
        async with self.engine.begin() as conn:
            await conn.execute(_SEEN, {"ids": ids, "now": utcnow()})
            current = {
                agent_id: thumbprint
                for agent_id, thumbprint in await conn.execute(CURRENT_KEYS, {"ids": ids})
            }
        for agent_id in ids:
            thumbprint = current.get(agent_id)
            for lease in list(self._leases.get(agent_id, ())):
                if thumbprint is None or lease.key_thumbprint not in (None, thumbprint):
                    lease.end()


_SEEN = (
    update(Agent)
    .where(col(Agent.id).in_(bindparam("ids", expanding=True)), col(Agent.deleted_at).is_(None))
    .values(last_seen_at=bindparam("now"))
)
