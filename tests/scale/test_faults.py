"""Faults under load, with real processes on loopback: a hub replica killed
(SIGKILL) while agents post through it, and the Redis broker killed and restarted or frozen
(SIGSTOP) for longer than a stream lease, under two replicas. On SQLite the replicas share a
file; CI's second run puts them on PostgreSQL. (tests/store/test_postgres_restart.py restarts
PostgreSQL itself.)

The streams here are read raw (``Listener``), not through the kit's ``EventStream``, which
drops an event it has seen: a doubled delivery must show."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import HubClient
from tests.support.faults import (
    KEEPALIVE_SECONDS,
    WAIT_SECONDS,
    Listener,
    a_group,
    every_one_once,
    on,
    post_with_failover,
    stored_messages,
)
from tests.support.hub import empty_tables
from tests.support.replicas import Redis, Replica
from tests.support.system import require

LEASE_SECONDS = 3 * KEEPALIVE_SECONDS + 5  # the hub's stream lease (app.main)
CAP = 2  # streams per agent


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    require("redis-server", "redis-server")
    server = Redis()
    await server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()


@pytest.fixture
async def pair(
    database_url: str, tmp_path: Path, redis: Redis
) -> AsyncIterator[tuple[Replica, Replica]]:
    key_file = tmp_path / "shared-signing-key.pem"
    replicas = [
        Replica(
            database_url=database_url,
            broker_url=redis.url,
            key_file=key_file,
            workdir=tmp_path,
            keepalive_seconds=KEEPALIVE_SECONDS,
            settings={"AGENTHUB_MAX_STREAMS_PER_AGENT": str(CAP)},
        )
        for _ in range(2)
    ]
    try:
        for replica in replicas:  # the first migrates and makes the shared key
            await replica.start()
        yield replicas[0], replicas[1]
    finally:
        for replica in replicas:
            replica.stop()
        await empty_tables(database_url)


async def test_a_replica_killed_under_posting_loses_and_doubles_nothing(
    pair: tuple[Replica, Replica],
) -> None:
    """Three agents post through replica A (falling over to B) while A is killed; the
    members' streams on A resume on B. Every acknowledged post is stored once, the seqs have
    no gaps, and every stream gets every message once."""
    a, b = pair
    leader, members, group_id = await a_group(a.url)
    listeners = [Listener(m, [a.url, b.url], group_id) for m in members]
    for listener in listeners:
        listener.start()
    await asyncio.wait_for(asyncio.gather(*(lis.connected.wait() for lis in listeners)), 30)
    posters = [leader, members[0], members[1]]
    acknowledged: list[dict[str, Any]] = []
    enough = asyncio.Event()

    async def speak(kit: HubClient) -> None:
        kits = [on(kit, a.url), on(kit, b.url)]
        for i in range(30):
            acknowledged.append(await post_with_failover(kits, group_id, f"post {i}"))
            if len(acknowledged) >= 20:
                enough.set()
        for client in kits:
            await client.aclose()

    speaking = asyncio.gather(*(speak(kit) for kit in posters))
    await asyncio.wait_for(enough.wait(), WAIT_SECONDS)
    a.kill()  # mid-stream: posts in flight on A, streams open on A
    await asyncio.wait_for(speaking, WAIT_SECONDS)

    stored = await stored_messages(on(leader, b.url), group_id)
    assert sorted(m["id"] for m in stored) == sorted(m["id"] for m in acknowledged)
    assert {m["id"]: m["seq"] for m in stored} == {m["id"]: m["seq"] for m in acknowledged}
    seqs = [m["seq"] for m in stored]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "a gap in the group's seqs"
    await every_one_once(listeners, stored)
    assert all(lis.urls[0] == a.url for lis in listeners)
    for listener in listeners:
        await listener.stop()
    for kit in [leader, *members]:
        await kit.aclose()


@pytest.mark.parametrize("fault", ["killed and restarted", "frozen"])
async def test_redis_away_loses_and_doubles_nothing_and_the_caps_recover(
    pair: tuple[Replica, Replica], redis: Redis, fault: str
) -> None:
    """Posts go through A while the members read on B; Redis goes away for longer than a
    stream lease (killed, or frozen with SIGSTOP so its connections hang) and comes back.
    Every stream gets every message once, and the streams-per-agent cap counts right again."""
    a, b = pair
    leader, members, group_id = await a_group(a.url)
    listeners = [Listener(m, [b.url], group_id) for m in members]
    for listener in listeners:
        listener.start()
    await asyncio.wait_for(asyncio.gather(*(lis.connected.wait() for lis in listeners)), 30)
    posters = [on(kit, a.url) for kit in (leader, members[0])]

    async def round_of(n: int, tag: str) -> None:
        async def speak(kit: HubClient) -> None:
            for i in range(n):
                await post_with_failover([kit], group_id, f"{tag} {i}")

        await asyncio.wait_for(asyncio.gather(*(speak(kit) for kit in posters)), WAIT_SECONDS)

    await round_of(5, "before")
    assert redis.proc is not None
    if fault == "frozen":
        os.kill(redis.proc.pid, signal.SIGSTOP)
    else:
        redis.stop()
    await round_of(5, "while away")
    async with httpx.AsyncClient(timeout=30) as http:  # posting works: both stay ready
        for replica in pair:
            answer = await http.get(f"{replica.url}/readyz")
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"status": "ready", "broker": "degraded"}
    await asyncio.sleep(LEASE_SECONDS + 2)  # every lease of the open streams lapsed meanwhile
    if fault == "frozen":
        os.kill(redis.proc.pid, signal.SIGCONT)
    else:
        await redis.start()
    await round_of(5, "after")

    stored = await stored_messages(posters[0], group_id)
    assert len(stored) == 30
    await every_one_once(listeners, stored)

    # the cap: members[2] holds one stream (its listener, on B); one more fits, on either
    # replica, and a third is refused, once the replicas have renewed their leases
    await asyncio.sleep(2 * KEEPALIVE_SECONDS)
    token = await members[2].access_token()
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=10) as http:
        second = await http.send(
            http.build_request("GET", f"{a.url}/v1/groups/{group_id}/events", headers=headers),
            stream=True,
        )
        assert second.status_code == 200
        third = await http.send(
            http.build_request("GET", f"{b.url}/v1/groups/{group_id}/events", headers=headers),
            stream=True,
        )
        await second.aclose()
        await third.aclose()
        assert third.status_code == 429, "the cap forgot a stream held while Redis was away"
    for listener in listeners:
        await listener.stop()
    for kit in [leader, *members, *posters]:
        await kit.aclose()
