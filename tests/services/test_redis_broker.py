"""The Redis broker between two replicas (a private redis-server): what it carries, and the
lag it reports (``agenthub_broker_lag_seconds``)."""

from __future__ import annotations

import redis.asyncio as redis_client

from app.broker.base import Delivery
from app.broker.redis_broker import TOPIC_PREFIX, RedisBroker
from tests.support.replicas import Redis
from tests.support.system import require

WAIT_SECONDS = 30


async def _received(subscription: object) -> list[Delivery]:
    from app.broker.base import Subscription

    assert isinstance(subscription, Subscription)
    got: list[Delivery] = []
    while not got:
        assert await subscription.wait(WAIT_SECONDS), "nothing arrived"
        got = subscription.drain()
    return got


async def test_another_replicas_event_arrives_with_its_lag_and_an_older_head_still_does() -> None:
    require("redis-server", "redis-server")
    server = Redis()
    await server.start()
    a, b = RedisBroker(server.url), RedisBroker(server.url)
    lags: list[float] = []
    own: list[float] = []
    b.watch_lag(lags.append)
    a.watch_lag(own.append)
    try:
        await a.start()
        await b.start()
        subscription = await b.subscribe("g-1")
        a.publish("g-1", Delivery(7, b"data: x\n\n", "alice"))
        (got,) = await _received(subscription)
        assert (got.seq, got.frame, got.sender_id, got.ends_for) == (
            7,
            b"data: x\n\n",
            "alice",
            None,
        )
        assert len(lags) == 1 and 0 <= lags[0] < WAIT_SECONDS
        assert a.outbox_events() == 0 and own == []  # its own event is not a lag
        # a replica of the version before the time stamp: no lag, delivered all the same
        async with redis_client.from_url(server.url) as older:
            await older.publish(TOPIC_PREFIX + "g-1", b"0123456789abcdef 8 - bob\ndata: y\n\n")
        (got,) = await _received(subscription)
        assert (got.seq, got.frame, got.sender_id, got.ends_for) == (8, b"data: y\n\n", None, "bob")
        assert len(lags) == 1
    finally:
        await a.close()
        await b.close()
        server.stop()
