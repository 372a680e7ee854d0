"""The hub's health as the operator's console shows it: this replica's metrics, and whether
its store and broker answer now (the pings ``/readyz`` makes, each bounded in time)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from agenthub import __version__
from agenthub.protocol.operator import HubHealth
from app.broker import Broker
from app.metrics import HubMetrics, Rates

PING_SECONDS = 2.0


async def answers(ping: Awaitable[object]) -> Literal["ok", "down"]:
    try:
        async with asyncio.timeout(PING_SECONDS):  # not wait_for: see app/stopping.py
            await ping
    except Exception:  # whatever the failure, the console shows it down
        return "down"
    return "ok"


async def _ping_store(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))


async def hub_health(
    *, engine: AsyncEngine, broker: Broker, metrics: HubMetrics, rates: Rates
) -> HubHealth:
    store, broker_state = await asyncio.gather(answers(_ping_store(engine)), answers(broker.ping()))
    deliveries, ingested = rates.per_second()
    return HubHealth(
        open_streams=metrics.open_stream_count(),
        deliveries_per_second=round(deliveries, 3),
        ingest_per_second=round(ingested, 3),
        broker=broker_state,
        store=store,
        version=__version__,
    )
