"""Two hub replicas on one store and one Redis: what is posted on A reaches streams on B,
exactly once and in order, also across a replica crash and a Redis restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.client import ClientCallContext
from a2a.types import SubscribeToTaskRequest

from agenthub import AgentKey, HubClient
from agenthub.a2a.groups import extension_fields, group_client
from agenthub.events import EventStream, HubEvent
from tests.support import LOOPBACK
from tests.support.faults import a_group
from tests.support.hub import OPERATOR_TOKEN, empty_tables, registered
from tests.support.replicas import Redis, Replica
from tests.support.system import require
from tests.support.waiting import eventually

WAIT_SECONDS = 60


@pytest.fixture
async def cluster(
    database_url: str, tmp_path: Path
) -> AsyncIterator[tuple[Redis, Replica, Replica]]:
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    key_file = tmp_path / "shared-signing-key.pem"
    a = Replica(
        database_url=database_url, broker_url=redis.url, key_file=key_file, workdir=tmp_path
    )
    # B's idle streams look at SQL only every 30 s: what they get sooner came through Redis
    b = Replica(
        database_url=database_url,
        broker_url=redis.url,
        key_file=key_file,
        workdir=tmp_path,
        keepalive_seconds=30,
    )
    try:
        await a.start()  # the first one migrates and makes the shared key
        await b.start()
        yield redis, a, b
    finally:
        a.stop()
        b.stop()
        redis.stop()
        await empty_tables(database_url)


def same_agent_on(kit: HubClient, url: str) -> HubClient:
    return HubClient(url, key=kit.key, agent_id=kit.agent_id)


async def collect(stream: EventStream, want: int, got: list[HubEvent]) -> list[HubEvent]:
    async def run() -> None:
        async for event in stream:
            if event.kind == "message":
                got.append(event)
                if len(got) == want:
                    stream.close()
                    return

    await asyncio.wait_for(run(), WAIT_SECONDS)
    return got


async def open_streams(replica: Replica, count: int) -> None:
    """Wait until the replica holds ``count`` open streams (its /metrics says so)."""
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:

        async def held() -> bool:
            text = (await http.get(f"{replica.url}/metrics")).text
            return f"agenthub_open_streams {float(count)}" in text

        await eventually(held, f"{replica.url} holding {count} streams")


def check(events: list[HubEvent], expected: list[str], me: str) -> None:
    seqs = [e.seq for e in events]
    assert seqs == sorted(set(seqs)), "out of order or twice"
    assert [e.data["id"] for e in events] == expected
    assert all(e.data["senderId"] != me for e in events)


async def test_posted_on_a_delivered_on_b_through_crash_and_redis_restart(
    cluster: tuple[Redis, Replica, Replica],
) -> None:
    redis, a, b = cluster
    leader, members, group_id = await a_group(a.url)
    listeners = [same_agent_on(m, b.url) for m in members]
    posters = [leader, members[0], members[1]]
    rounds = [10, 10, 10]  # before the crash, while B is down, while Redis is down
    total = len(posters) * sum(rounds)
    own = {m.agent_id: (sum(rounds) if m in posters else 0) for m in members}
    streams = {lis.agent_id: lis.groups.events(group_id) for lis in listeners}
    got: dict[str | None, list[HubEvent]] = {lis.agent_id: [] for lis in listeners}
    readers = {
        lis.agent_id: asyncio.create_task(
            collect(streams[lis.agent_id], total - own[lis.agent_id], got[lis.agent_id])
        )
        for lis in listeners
    }
    sent: list[dict[str, Any]] = []

    async def round_of(n: int, tag: str) -> None:
        async def speak(kit: HubClient) -> list[dict[str, Any]]:
            role = "leader" if kit is leader else "partner"
            return [await kit.groups.post(group_id, f"{tag} {i}", role=role) for i in range(n)]

        for batch in await asyncio.gather(*(speak(p) for p in posters)):
            sent.extend(batch)

    async def caught_up(seconds: float) -> bool:
        for _ in range(int(seconds / 0.05)):
            if all(
                len(got[lis.agent_id]) >= len([m for m in sent if m["senderId"] != lis.agent_id])
                for lis in listeners
            ):
                return True
            await asyncio.sleep(0.05)
        return False

    await open_streams(b, len(listeners))
    await round_of(rounds[0], "live")
    # live: B's streams get what was posted on A, through Redis
    assert await caught_up(5), "B did not hear A's posts live"
    assert all(stream.reconnects == 0 for stream in streams.values())
    # replica B crashes under its streams; posts go on through A; B comes back and the
    # clients resume there
    b.kill()
    await round_of(rounds[1], "while B is down")
    await b.start()
    await open_streams(b, len(listeners))
    assert await caught_up(15), "the resumed streams missed what was posted while B was down"
    # Redis restarts: A cannot publish for a while; B's streams catch up from SQL
    redis.stop()
    await round_of(rounds[2], "while Redis is down")
    await redis.start()
    # B's streams catch up when B's broker is back on Redis, well before their 30 s keep-alive
    results = await asyncio.wait_for(asyncio.gather(*readers.values()), 20)
    by_seq = sorted(sent, key=lambda m: m["seq"])
    for agent_id, events in zip(readers, results, strict=True):
        expected = [m["id"] for m in by_seq if m["senderId"] != agent_id]
        check(events, expected, str(agent_id))
        assert streams[agent_id].reconnects >= 1
    for kit in [leader, *members, *listeners]:
        await kit.aclose()


@pytest.fixture
async def quick_pair(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Replica, Replica]]:
    """Two replicas whose sweeps run every second."""
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    key_file = tmp_path / "shared-signing-key.pem"
    pair = [
        Replica(
            database_url=database_url, broker_url=redis.url, key_file=key_file, workdir=tmp_path
        )
        for _ in range(2)
    ]
    try:
        for replica in pair:
            await replica.start()
        yield pair[0], pair[1]
    finally:
        for replica in pair:
            replica.stop()
        redis.stop()
        await empty_tables(database_url)


async def _read_to_end(url: str, token: str) -> None:
    """Read a stream until the hub ends it (a read timeout raises: the stream was left open)."""
    async with (
        httpx.AsyncClient(timeout=LOOPBACK) as http,
        http.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as response,
    ):
        assert response.status_code == 200
        await response.aread()


async def test_deregistration_and_rotation_on_one_replica_end_streams_on_the_other(
    quick_pair: tuple[Replica, Replica],
) -> None:
    a, b = quick_pair
    gone, rekeyed = await registered(a.url, "gone"), await registered(a.url, "rekeyed")
    readers = {}
    for kit in (gone, rekeyed):
        token = await same_agent_on(kit, b.url).access_token()
        readers[kit.agent_id] = asyncio.create_task(
            _read_to_end(f"{b.url}/v1/agents/me/events", token)
        )
    await open_streams(b, 2)
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        answer = await http.delete(
            f"{a.url}/v1/agents/{gone.agent_id}",
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
        assert answer.status_code == 204
    await rekeyed.rotate_key(AgentKey.generate())  # on A
    await asyncio.wait_for(asyncio.gather(*readers.values()), 60)  # both ended by B
    for kit in (gone, rekeyed):
        await kit.aclose()


async def test_an_agents_stream_cap_counts_its_streams_on_every_replica(
    database_url: str, tmp_path: Path
) -> None:
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    key_file = tmp_path / "shared-signing-key.pem"
    capped = {"AGENTHUB_MAX_STREAMS_PER_AGENT": "2"}
    a, b = (
        Replica(
            database_url=database_url,
            broker_url=redis.url,
            key_file=key_file,
            workdir=tmp_path,
            settings=capped,
        )
        for _ in range(2)
    )
    try:
        await a.start()
        await b.start()
        kit = await registered(a.url, "greedy")
        token = await kit.access_token()
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(timeout=10) as http:
            on_a = await http.send(
                http.build_request("GET", f"{a.url}/v1/agents/me/events", headers=headers),
                stream=True,
            )
            on_b = await http.send(
                http.build_request("GET", f"{b.url}/v1/agents/me/events", headers=headers),
                stream=True,
            )
            assert (on_a.status_code, on_b.status_code) == (200, 200)
            for replica in (a, b):  # one on each: a third on either is one too many
                third = await http.get(f"{replica.url}/v1/agents/me/events", headers=headers)
                assert third.status_code == 429, third.text
                assert third.headers["Retry-After"] and "2 streams" in third.json()["detail"]
            await on_a.aclose()  # A gives its lease back: B may open one now
            again = await admitted(http, f"{b.url}/v1/agents/me/events", headers, within=5)
            await again.aclose()
            # A dies holding a lease: it lapses by itself (3 sweeps + 5 s), and B admits again
            on_a = await admitted(http, f"{a.url}/v1/agents/me/events", headers, within=5)
            a.kill()
            await on_a.aclose()
            started = asyncio.get_running_loop().time()
            again = await admitted(http, f"{b.url}/v1/agents/me/events", headers, within=20)
            waited = asyncio.get_running_loop().time() - started
            assert waited > 1, "the dead replica's lease was not counted at all"
            await again.aclose()
            await on_b.aclose()
        await kit.aclose()
    finally:
        a.stop()
        b.stop()
        redis.stop()
        await empty_tables(database_url)


async def admitted(
    http: httpx.AsyncClient, url: str, headers: dict[str, str], *, within: float
) -> httpx.Response:
    """An open stream at ``url``, asking again while the answer is 429 (up to ``within`` s)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + within
    while True:
        answer = await http.send(http.build_request("GET", url, headers=headers), stream=True)
        if answer.status_code != 429 or loop.time() > ends:
            assert answer.status_code == 200, answer.status_code
            return answer
        await answer.aclose()
        await asyncio.sleep(0.1)


async def test_an_a2a_subscriber_cut_mid_stream_resumes_on_the_other_replica_losing_nothing(
    cluster: tuple[Redis, Replica, Replica],
) -> None:
    """A group's A2A stream (a2a-sdk's client, ``agenthub.a2a.groups``) opened on
    B, cut while posts go on through A, resumed on A from its last seq: every post once, in
    order."""
    _, a, b = cluster
    leader, members, group_id = await a_group(a.url)
    listener = members[2]
    posters = [leader, members[0]]
    each = 20
    sent: list[dict[str, Any]] = []

    async def post_all() -> None:
        for i in range(each):
            for kit in posters:
                role = "leader" if kit is leader else "partner"
                sent.append(await kit.groups.post(group_id, f"post {i}", role=role))

    def fields(event: Any) -> dict[str, Any]:
        return extension_fields(event.status_update.status.message.metadata)

    async def posts(events: Any, want: int, got: list[Any]) -> None:
        async with asyncio.timeout(WAIT_SECONDS):
            async for event in events:
                if event.HasField("status_update") and event.status_update.status.message.parts:
                    got.append(event)
                    if len(got) >= want:
                        return

    on_b, on_a = same_agent_on(listener, b.url), same_agent_on(listener, a.url)
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        _, client_b = await group_client(on_b, group_id, http)
        cut: Any = client_b.subscribe(SubscribeToTaskRequest(id=group_id))
        assert (await anext(cut)).HasField("task")
        posting = asyncio.create_task(post_all())
        got: list[Any] = []
        await posts(cut, 10, got)
        await cut.aclose()  # cut mid-stream: the posts go on
        last = int(fields(got[-1])["seq"])
        _, client_a = await group_client(on_a, group_id, http)
        resumed: Any = client_a.subscribe(
            SubscribeToTaskRequest(id=group_id),
            context=ClientCallContext(service_parameters={"Last-Event-ID": str(last)}),
        )
        assert (await anext(resumed)).HasField("task")
        await posts(resumed, len(posters) * each, got)
        await resumed.aclose()
        await posting
        await client_a.close()
        await client_b.close()
    seqs = [int(fields(e)["seq"]) for e in got]
    assert seqs == sorted(set(seqs)), "out of order or twice"
    by_seq = sorted(sent, key=lambda m: m["seq"])
    assert [e.status_update.status.message.message_id for e in got] == [m["id"] for m in by_seq]
    for kit in [leader, *members, on_a, on_b]:
        await kit.aclose()
