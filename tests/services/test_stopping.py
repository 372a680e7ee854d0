"""The hub's background tasks end when it stops, even those that swallow a cancel."""

from __future__ import annotations

import asyncio

import pytest

from app.broker.base import Delivery
from app.broker.redis_broker import RedisBroker
from app.stopping import stop
from tests.support.replicas import Redis
from tests.support.system import require

CLOSE_SECONDS = 5


async def test_a_task_that_swallows_its_cancel_is_cancelled_again() -> None:
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1  # as 3.11's wait_for does when its result and a cancel meet

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await asyncio.wait_for(stop(task, None), CLOSE_SECONDS)
    assert task.cancelled()
    assert swallowed == 1


async def test_stop_logs_what_a_task_ended_with(caplog: pytest.LogCaptureFixture) -> None:
    async def fails() -> None:
        raise ValueError("broken")

    task = asyncio.create_task(fails(), name="the-failing-one")
    await asyncio.sleep(0)
    await stop(task)
    assert "the-failing-one ended with ValueError('broken')" in caplog.text


async def test_the_redis_broker_closes_whenever_it_is_closed() -> None:
    """The broker cancelled at every point of its first publish (connecting, writing,
    reading): each close ends. Before ``stop``, 2 of the first 18 hung for good, the
    publisher's cancel lost in redis-py's ``wait_for`` (CI's PostgreSQL + Redis run)."""
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    try:
        for attempt in range(120):
            broker = RedisBroker(redis.url)
            await broker.start()
            broker.publish("operator", Delivery(1, b"data: x\n\n"))
            await asyncio.sleep((attempt % 40) * 0.0001)
            closing = asyncio.ensure_future(broker.close())
            done, _ = await asyncio.wait([closing], timeout=CLOSE_SECONDS)
            assert done, f"close {attempt} still waits: {broker._tasks}"
    finally:
        redis.stop()
