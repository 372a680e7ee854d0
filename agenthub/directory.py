"""Peers' cards (keys, endpoints) from the hub's registry, cached for a short while."""

from __future__ import annotations

import time
from typing import Any

from agenthub.hub import HubClient
from agenthub.protocol.agents import AgentCard
from agenthub.protocol.oauth import ClientStanding

PEER_CACHE_SECONDS = 60.0


class PeerDirectory:
    def __init__(self, hub: HubClient, *, ttl_seconds: float = PEER_CACHE_SECONDS) -> None:
        self.hub = hub
        self.ttl = ttl_seconds
        self._cards: dict[str, tuple[AgentCard, float]] = {}
        self._standings: dict[str, tuple[ClientStanding, float]] = {}

    async def card(self, agent_id: str, *, refresh: bool = False) -> AgentCard:
        cached = self._cards.get(agent_id)
        if cached is not None and not refresh and time.monotonic() - cached[1] < self.ttl:
            return cached[0]
        card = await self.hub.get_agent(agent_id)
        self._cards[agent_id] = (card, time.monotonic())
        return card

    async def key_of(self, agent_id: str, refresh: bool = False) -> dict[str, Any]:
        """The agent's registered public JWK (``agenthub.peers.CardKey``)."""
        return (await self.card(agent_id, refresh=refresh)).public_jwk

    async def standing(self, client_id: str) -> ClientStanding:
        """An OAuth client's standing at the hub (``HubRequestError``: none there)."""
        cached = self._standings.get(client_id)
        if cached is not None and time.monotonic() - cached[1] < self.ttl:
            return cached[0]
        standing = await self.hub.client_standing(client_id)
        self._standings[client_id] = (standing, time.monotonic())
        return standing

    def forget(self, agent_id: str) -> None:
        self._cards.pop(agent_id, None)
        self._standings.pop(agent_id, None)
