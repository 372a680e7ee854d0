"""The project's nginx config (deploy/nginx/) on Debian's nginx, in front of two real hub
replicas on one store and a private Redis: streams pass through frame by frame, and a stream
whose replica is killed resumes through nginx on the other one, losing nothing."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from agenthub import AgentKey, HubClient
from agenthub.events import EventStream, HubEvent, parse_sse
from app.auth.ca import load_or_create_ca, write_server_certificate
from app.config import Settings
from tests.support import LOOPBACK
from tests.support.groups import team
from tests.support.hub import REGISTRATION_TOKEN, empty_tables, registered
from tests.support.live import free_port
from tests.support.replicas import Nginx, Redis, Replica
from tests.support.system import require
from tests.support.waiting import eventually

pytestmark = pytest.mark.slow  # two replicas, Redis and nginx start for each test
WAIT_SECONDS = 60  # bounds a whole test
PROMPT_SECONDS = 5  # a frame held back by a buffer would wait for keep-alives to fill it
# The replicas' keep-alives come every 30 s: a frame that arrives sooner was not pushed out
# of a buffer by the ones after it
KEEPALIVE_SECONDS = 30


@dataclass
class Cluster:
    redis: Redis
    replicas: list[Replica]
    lb: Nginx
    ca_file: Path  # the hub's TLS CA, which signs nginx's certificate


def tls_ca_paths(signing_key_file: Path) -> tuple[Path, Path]:
    """Where `agenthub hub-certificate` keeps the hub's TLS CA: beside the signing key."""
    return Settings(_env_file=None, signing_key_file=signing_key_file).tls_ca_paths


@pytest.fixture
async def cluster(database_url: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    nginx = require("nginx", "nginx")
    envsubst = require("envsubst", "gettext-base")
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    tls_port = free_port()  # the hub's public URL: nginx's https door (as in Compose)
    replicas = [
        Replica(
            database_url=database_url,
            broker_url=redis.url,
            key_file=tmp_path / "shared-signing-key.pem",
            workdir=tmp_path,
            keepalive_seconds=KEEPALIVE_SECONDS,
            settings={"AGENTHUB_PUBLIC_URL": f"https://127.0.0.1:{tls_port}"},
        )
        for _ in range(2)
    ]
    try:
        for replica in replicas:  # the first one migrates and makes the shared key and CA
            await replica.start()
        # TLS ends at nginx, with a certificate of the hub's TLS CA (as the `lb-certificate`
        # service makes it in Compose)
        key_file, ca_file = tls_ca_paths(tmp_path / "shared-signing-key.pem")
        ca = load_or_create_ca(key_file, ca_file, issuer="agenthub-test", role="hub TLS")
        tls = (tmp_path / "lb-cert.pem", tmp_path / "lb-key.pem")
        write_server_certificate(ca, ["127.0.0.1", "localhost"], *tls, days=1)
        lb = Nginx(
            binary=nginx,
            envsubst=envsubst,
            prefix=tmp_path / "nginx",
            upstreams=[r.port for r in replicas],
            tls=tls,
            tls_port=tls_port,
        )
        await lb.start()
        yield Cluster(redis, replicas, lb, ca_file)
    finally:
        if "lb" in locals():
            lb.stop()
        for replica in replicas:
            replica.stop()
        redis.stop()
        await empty_tables(database_url)


async def next_message(events: AsyncIterator[HubEvent]) -> HubEvent:
    async for event in events:
        if event.kind == "message":
            return event
    raise AssertionError("the stream ended")


async def streams_held(replica: Replica) -> int:
    async with httpx.AsyncClient(timeout=2) as http:
        text = (await http.get(f"{replica.url}/metrics")).text
    line = next(x for x in text.splitlines() if x.startswith("agenthub_open_streams "))
    return int(float(line.split()[1]))


async def serving_replica(cluster: Cluster) -> Replica:
    """The replica that holds the one open stream (their /metrics say which)."""

    async def holder() -> Replica | None:
        held = [r for r in cluster.replicas if r.proc is not None and await streams_held(r)]
        return held[0] if len(held) == 1 else None

    return await eventually(holder, "a single replica holds the stream")


async def test_rendered_config_is_the_projects_with_loopback_upstreams(cluster: Cluster) -> None:
    assert "proxy_buffering off;" in cluster.lb.site
    assert f"listen 127.0.0.1:{cluster.lb.port};" in cluster.lb.site
    for replica in cluster.replicas:
        assert f"server 127.0.0.1:{replica.port} " in cluster.lb.site
    assert "${NGINX_" not in cluster.lb.site
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=cluster.lb.url) as http:
        assert (await http.get("/readyz")).json() == {"status": "ready", "broker": "ok"}
        # the URLs in the hub's documents are its public URL's, whatever door a client took
        metadata = (await http.get("/.well-known/agenthub.json")).json()
    assert metadata["tokenEndpoint"] == f"{cluster.lb.tls_url}/v1/auth/token"


async def test_metrics_are_not_served_on_the_balancer(cluster: Cluster) -> None:
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=cluster.lb.url) as http:
        for path in ("/metrics", "/metrics?x=1"):
            refused = await http.get(path)
            assert refused.status_code == 404, path
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.json()["status"] == 404
        assert (await http.get("/metricsz")).status_code == 404  # the hub's own 404
    async with httpx.AsyncClient(timeout=5) as http:  # each replica serves its own
        replica = cluster.replicas[0]
        direct = await http.get(f"http://127.0.0.1:{replica.port}/metrics")
        assert direct.status_code == 200 and "agenthub_" in direct.text


async def test_a_header_over_the_limits_is_431_at_the_balancer_too(cluster: Cluster) -> None:
    """nginx's header buffers stand for the hub's AGENTHUB_MAX_HEADER_BYTES at the door; what
    they refuse is answered as the hub answers it."""
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=cluster.lb.url) as http:
        for size in (9_000, 20_000):
            refused = await http.get("/healthz", headers={"X-Big": "a" * size})
            assert refused.status_code == 431, (size, refused.text)
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.json()["status"] == 431
        assert (await http.get("/healthz", headers={"X-Fits": "a" * 6_000})).status_code == 200


async def test_tls_ends_at_nginx_with_a_certificate_of_the_agents_ca(cluster: Cluster) -> None:
    """Compose's `lb` serves HTTPS too: a kit agent that pins the hub's TLS CA registers and
    signs in through it; the hub's documents name the https URL (its public URL)."""
    ca_file = cluster.ca_file
    context = ssl.create_default_context(cafile=ca_file)
    async with httpx.AsyncClient(
        timeout=LOOPBACK, base_url=cluster.lb.tls_url, verify=context
    ) as http:
        assert (await http.get("/readyz")).json() == {"status": "ready", "broker": "ok"}
        metadata = (await http.get("/.well-known/agenthub.json")).json()
    assert metadata["tokenEndpoint"] == f"{cluster.lb.tls_url}/v1/auth/token"
    key = AgentKey.generate()
    async with HubClient(cluster.lb.tls_url, key=key, hub_ca=ca_file) as kit:
        card = {"name": "over-tls", "description": "through nginx", "publicJwk": key.public_jwk}
        await kit.register(card, registration_token=REGISTRATION_TOKEN)
        assert await kit.access_token()


async def test_stream_through_nginx_arrives_frame_by_frame(cluster: Cluster) -> None:
    leader = await registered(cluster.lb.url, "leader")
    member = await registered(cluster.lb.url, "member")
    group = await team(leader, member)
    path = f"/v1/groups/{group['id']}/events"
    async with asyncio.timeout(WAIT_SECONDS):
        async with member.open_stream(
            path, last_event_id=0, timeout=httpx.Timeout(10, read=WAIT_SECONDS)
        ) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            assert "content-length" not in response.headers
            events = parse_sse(response.aiter_lines())
            for i in range(5):
                # posted through nginx (round robin: either replica), so it reaches the
                # stream's replica through Redis or at once; each one is read before the
                # next is posted
                sent = await leader.groups.post(group["id"], f"frame {i}", role="leader")
                try:
                    got = await asyncio.wait_for(next_message(events), PROMPT_SECONDS)
                except TimeoutError:
                    pytest.fail(f"frame {i} was held back (buffered?) for {PROMPT_SECONDS} s")
                assert (got.seq, got.data["id"]) == (sent["seq"], sent["id"])
    await leader.aclose()
    await member.aclose()


async def test_stream_resumes_through_nginx_after_its_replica_is_killed(
    cluster: Cluster,
) -> None:
    leader = await registered(cluster.lb.url, "leader")
    member = await registered(cluster.lb.url, "member")
    group = await team(leader, member)
    stream: EventStream = member.groups.events(group["id"])
    got: list[HubEvent] = []
    sent: list[dict[str, str | int]] = []

    async def collect() -> None:
        async for event in stream:
            if event.kind == "message":
                got.append(event)

    async def post(tag: str) -> None:
        for i in range(5):
            sent.append(await leader.groups.post(group["id"], f"{tag} {i}", role="leader"))

    async def received_all() -> None:
        while len(got) < len(sent):
            await asyncio.sleep(0.05)

    reader = asyncio.create_task(collect())
    try:
        async with asyncio.timeout(WAIT_SECONDS):
            await post("before")
            await received_all()
            killed = await serving_replica(cluster)
            killed.kill()  # as a crash: no graceful end of the stream
            # posted at once, while the stream reconnects; nginx skips the dead replica
            await post("while reconnecting")
            await received_all()
            await post("after")
            await received_all()
            survivor = await serving_replica(cluster)
    finally:
        stream.close()
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
    assert survivor is not killed
    assert stream.reconnects >= 1
    seqs = [e.seq for e in got]
    assert seqs == sorted(set(seqs)), "out of order or twice"
    assert [e.data["id"] for e in got] == [m["id"] for m in sorted(sent, key=lambda m: m["seq"])]
    await leader.aclose()
    await member.aclose()
