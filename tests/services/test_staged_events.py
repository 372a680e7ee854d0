"""Staged events reach the broker when their transaction commits, and only then: a savepoint
released is no commit (SQLAlchemy tells ``after_commit`` for it too), and a transaction
rolled back after one delivers nothing of it (``services.events``)."""

from __future__ import annotations

from typing import Any

from app.broker import Delivery
from app.services.events import stage

CHANNEL = "staged-events-test"


async def test_a_released_savepoint_publishes_nothing_before_the_commit(hub: Any) -> None:
    broker = hub.state.broker
    subscription = await broker.subscribe(CHANNEL)
    try:
        async with hub.state.session_factory() as db:
            stage(db, CHANNEL, Delivery(1, b"before the savepoint"))
            async with db.begin_nested():
                stage(db, CHANNEL, Delivery(2, b"in the savepoint"))
            assert subscription.drain() == []  # released, not committed
            stage(db, CHANNEL, Delivery(3, b"after it"))
            await db.rollback()
        assert subscription.drain() == []  # rolled back: none of it

        async with hub.state.session_factory() as db:
            stage(db, CHANNEL, Delivery(4, b"before the savepoint"))
            async with db.begin_nested():
                stage(db, CHANNEL, Delivery(5, b"in the savepoint"))
            assert subscription.drain() == []
            stage(db, CHANNEL, Delivery(6, b"after it"))
            await db.commit()
        assert [d.seq for d in subscription.drain()] == [4, 5, 6]  # committed: all, in order
    finally:
        broker.unsubscribe(subscription)
