"""``app.streams.presence``: a deregistration waits, bounded, until the agent's streams here
have let their leases go."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from app.streams.presence import Presence
from tests.support.parts import parts


async def test_gone_waits_for_the_agents_last_stream_here(hub: Any) -> None:
    presence = Presence(parts(hub).engine, interval_seconds=60)
    first = await presence.hold("agt-a", None, time.time() + 60)
    second = await presence.hold("agt-a", None, time.time() + 60)
    other = await presence.hold("agt-b", None, time.time() + 60)
    waiting = asyncio.create_task(presence.gone("agt-a", timeout=30))
    presence.revoke("agt-a")  # ended: their streams let go when they next run
    for _ in range(20):
        await asyncio.sleep(0)
    assert not waiting.done()
    presence.release(first)
    for _ in range(20):
        await asyncio.sleep(0)
    assert not waiting.done()  # one of its two still open
    presence.release(second)
    assert await asyncio.wait_for(waiting, 60) is True
    assert not other.ended and presence.held() == 1
    assert await presence.gone("agt-none", timeout=0) is True
    assert await presence.gone("agt-b", timeout=0.01) is False  # still open: gave up
