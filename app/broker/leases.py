"""Stream leases counted across replicas, in Redis (``AGENTHUB_BROKER_URL=redis://…``).

Each agent has a sorted set of the leases its open streams hold on every replica, scored by
when they lapse (Redis's clock, so replicas need not agree on the time). Taking a lease is one
script: drop the lapsed ones, count, add if under the cap. A replica renews the leases of its
open streams on every presence sweep, so the leases of a replica that died lapse by
themselves within ``ttl_seconds``; a lease Redis lost (restarted without its data, or frozen
past the lapse) whose stream is still open is put back at the next sweep. When Redis cannot
be reached, the replica admits on its own count and says so once in the log: a broker outage
must not close the hub.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import redis.asyncio as redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PREFIX = "agenthub:leases:"

# KEYS[1] the agent's set; ARGV: member, cap, ttl in ms. Returns -1 when taken, else the count.
_TAKE = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then return held end
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return -1
"""

# KEYS[1] the agent's set; ARGV: ttl in ms, 1 to add members missing (else only those still
# there are renewed), then the members. Returns the members that were missing.
_RENEW = """
local now = redis.call('TIME')
local until_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[1])
local missing = {}
for i = 3, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], until_ms, ARGV[i])
  else
    table.insert(missing, ARGV[i])
    if ARGV[2] == '1' then redis.call('ZADD', KEYS[1], until_ms, ARGV[i]) end
  end
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return missing
"""


class RedisLeases:
    def __init__(self, url: str, *, ttl_seconds: float) -> None:
        self.ttl_ms = max(1000, int(ttl_seconds * 1000))
        self._client: redis.Redis = redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._take = self._client.register_script(_TAKE)
        self._renew = self._client.register_script(_RENEW)
        self._failing = False

    async def take(self, agent_id: str, member: str, cap: int) -> int | None:
        """None when the lease is taken; else how many the agent holds on all replicas.
        Also None when Redis is away (the caller's own count is all there is then)."""
        try:
            held = int(await self._take(keys=[PREFIX + agent_id], args=[member, cap, self.ttl_ms]))
        except (RedisError, OSError) as exc:
            self._away(exc)
            return None
        self._failing = False
        return None if held < 0 else held

    async def give_back(self, agent_id: str, member: str) -> None:
        try:
            await self._client.zrem(PREFIX + agent_id, member)
        except (RedisError, OSError) as exc:
            self._away(exc)  # it lapses by itself

    async def renew(
        self, held: Iterable[tuple[str, list[str]]], *, add: bool = False
    ) -> list[tuple[str, list[str]]]:
        """Renew the leases this replica holds: ``(agent id, members)`` pairs. Returns those
        Redis no longer had: given back meanwhile, or lost while Redis was away (restarted,
        or frozen past their lapse). ``add``: put those back too (the caller's leases that
        are still open: see ``Presence.sweep``)."""
        pairs = [(agent_id, members) for agent_id, members in held if members]
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for agent_id, members in pairs:
                    await self._renew(
                        keys=[PREFIX + agent_id],
                        args=[self.ttl_ms, int(add), *members],
                        client=pipe,
                    )
                answers = await pipe.execute()
        except (RedisError, OSError) as exc:
            self._away(exc)
            return []
        self._failing = False
        return [
            (agent_id, [m.decode() if isinstance(m, bytes) else str(m) for m in missing])
            for (agent_id, _), missing in zip(pairs, answers, strict=True)
            if missing
        ]

    async def close(self) -> None:
        await self._client.aclose()

    def _away(self, exc: BaseException) -> None:
        if not self._failing:
            logger.warning("counting streams across replicas failed (%s): each counts its own", exc)
        self._failing = True
