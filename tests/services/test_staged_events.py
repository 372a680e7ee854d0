"""Staged events reach the broker when the transaction that staged them commits, and only
then, published by whoever owns it (``core.unit_of_work``): a savepoint released is no
commit, a transaction that ends in an error delivers nothing of it, and a commit made by
hand around the owner publishes nothing (``core.outbox``)."""

from __future__ import annotations

from typing import Any

import pytest

from app.broker import Delivery
from app.core.unit_of_work import stage, transaction
from tests.support.parts import parts

CHANNEL = "staged-events-test"


async def test_a_transaction_publishes_what_it_staged_once_it_commits_and_only_then(
    hub: Any,
) -> None:
    broker = parts(hub).broker
    factory = parts(hub).session_factory
    subscription = await broker.subscribe(CHANNEL)
    try:
        with pytest.raises(LookupError):
            async with transaction(factory) as db:
                stage(db, CHANNEL, Delivery(1, b"before the savepoint"))
                async with db.begin_nested():
                    stage(db, CHANNEL, Delivery(2, b"in the savepoint"))
                assert subscription.drain() == []  # released, not committed
                stage(db, CHANNEL, Delivery(3, b"after it"))
                raise LookupError("the route failed")
        assert subscription.drain() == []  # rolled back: none of it

        async with factory() as db:
            stage(db, CHANNEL, Delivery(4, b"outside any owner"))
            await db.commit()
        assert subscription.drain() == []  # no listener publishes behind the owner's back

        async with transaction(factory) as db:
            stage(db, CHANNEL, Delivery(5, b"before the savepoint"))
            async with db.begin_nested():
                stage(db, CHANNEL, Delivery(6, b"in the savepoint"))
            assert subscription.drain() == []
            stage(db, CHANNEL, Delivery(7, b"after it"))
            assert subscription.drain() == []  # not before the COMMIT
        assert [d.seq for d in subscription.drain()] == [5, 6, 7]  # committed: all, in order
    finally:
        broker.unsubscribe(subscription)
