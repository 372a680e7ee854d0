"""Hub routes and the error contract: problem+json everywhere, 413, routing errors, metrics."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import AgentKey
from app.auth.keys import load_or_create_hub_keys
from tests.support.hub import ISSUER, REGISTRATION_TOKEN, MakeAgent, card, problem
from tests.support.parts import parts


async def test_healthz_and_readyz(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    assert (await client.get("/readyz")).status_code == 200


async def test_readyz_is_503_when_sql_is_gone(settings: Any, tmp_path: Any) -> None:
    from app.main import create_app

    settings.database_url = f"sqlite+aiosqlite:///{tmp_path}/missing-dir/none.db"
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
            problem(await http.get("/readyz"), 503)
    await asyncio.sleep(0.2)  # let aiosqlite's failed connect thread end before the loop does


async def _answers_store_unavailable(application: Any) -> None:
    """A route that reads the store answers 503, retry in a second."""
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
        answer = await http.get("/.well-known/agenthub-crl.pem")
    problem(answer, 503)
    assert answer.headers["retry-after"] == "1"


def _metered(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found, name
    return float(found[1])


async def test_a_store_with_no_connection_free_answers_503_not_500(settings: Any) -> None:
    """The hub's own timers (trigger sweeps, purges) share the pool: one may hold or wait
    for a connection at any moment of this test, so each count is read against the pool
    itself or as a rise, never as an absolute that a timer's turn could move."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from app.main import create_app

    settings.database_pool_timeout_seconds = 0.2
    settings.trigger_poll_seconds = 60  # the sweeps run once at start, then sleep
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        engine = parts(application).engine
        metrics = parts(application).metrics
        held = []
        try:
            for _ in range(100):  # every connection the pool may open, held here
                try:
                    held.append(await engine.connect())
                except PoolTimeout:
                    break
            else:
                raise AssertionError("the pool never ran out")
            before = _metered(metrics.render().decode(), "agenthub_db_pool_timeouts_total")
            assert before >= 1  # the connection this test could not get
            await _answers_store_unavailable(application)
            in_pool = engine.pool.checkedout()  # type: ignore[attr-defined]
            metered = metrics.render().decode()
            assert _metered(metered, "agenthub_db_pool_connections_in_use") == in_pool
            assert in_pool >= len(held)
            assert _metered(metered, "agenthub_db_pool_timeouts_total") > before  # the request's
        finally:
            for connection in held:
                await connection.close()
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
            assert (await http.get("/.well-known/agenthub-crl.pem")).status_code == 200
            metered = (await http.get("/metrics")).text
        # what this test held is back: only a timer's turn may hold one now
        assert _metered(metered, "agenthub_db_pool_connections_in_use") <= 1
        assert _metered(metered, "agenthub_db_pool_wait_seconds_count") > len(held)  # all


@pytest.mark.slow  # starts a redis-server
async def test_readyz_says_the_broker_is_degraded_not_unready(settings: Any) -> None:
    """A frozen or stopped Redis leaves the replica ready (posts still go to SQL): the
    readiness probe must not take every replica out, so the body says the broker is
    degraded."""
    from app.main import create_app
    from tests.support.replicas import Redis

    redis = Redis()
    await redis.start()
    try:
        settings.broker_url = redis.url
        application = create_app(settings)
        async with application.router.lifespan_context(application):
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
                assert (await http.get("/readyz")).json() == {"status": "ready", "broker": "ok"}
                assert redis.proc is not None
                os.kill(redis.proc.pid, signal.SIGSTOP)  # it hangs: the ping is bounded
                try:
                    answer = await http.get("/readyz")
                finally:
                    os.kill(redis.proc.pid, signal.SIGCONT)
                assert answer.status_code == 200
                assert answer.json() == {"status": "ready", "broker": "degraded"}
                redis.stop()  # it is gone: refused at once
                answer = await http.get("/readyz")
                assert answer.status_code == 200
                assert answer.json() == {"status": "ready", "broker": "degraded"}
                assert (await http.get("/healthz")).status_code == 200
    finally:
        redis.stop()


async def test_well_known_documents(client: httpx.AsyncClient, hub: Any) -> None:
    meta = (await client.get("/.well-known/agenthub.json")).json()
    assert meta == {
        "issuer": ISSUER,
        "tokenEndpoint": "http://hub.test/v1/auth/token",
        "jwksUri": "http://hub.test/.well-known/jwks.json",
        "apiVersion": "v1",
        "caUri": "http://hub.test/.well-known/agenthub-ca.pem",
        "crlUri": "http://hub.test/.well-known/agenthub-crl.pem",
    }
    jwks = (await client.get("/.well-known/jwks.json")).json()
    assert len(jwks["keys"]) == 1
    key = jwks["keys"][0]
    assert key["kid"] == parts(hub).keys.kid and key["alg"] == "ES256" and "d" not in key


def test_hub_key_made_with_mode_0600_and_reloaded(tmp_path: Any) -> None:
    path = tmp_path / "keys" / "hub.pem"
    first = load_or_create_hub_keys(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = load_or_create_hub_keys(path)
    assert again.kid == first.kid and again.public_jwk == first.public_jwk


def test_hub_key_file_of_wrong_kind_is_refused(tmp_path: Any) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = tmp_path / "p384.pem"
    key = ec.generate_private_key(ec.SECP384R1())
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    try:
        load_or_create_hub_keys(path)
    except ValueError as exc:
        assert "P-256" in str(exc)
    else:
        raise AssertionError("a P-384 key must be refused")


async def test_unknown_route_and_method_are_problems(client: httpx.AsyncClient) -> None:
    problem(await client.get("/nowhere"), 404)
    problem(await client.put("/healthz"), 405)
    problem(await client.delete("/v1/agents"), 405)
    # routers deep in the app (app.api.routing.HubRouter turns away what none of its
    # routes match, and only that)
    problem(await client.get("/v1/sessions/s-1/messages:batch"), 405)
    problem(await client.put("/v1/groups/g-1/messages"), 405)
    problem(await client.get("/v1/groups/g-1/nowhere"), 404)


async def test_routes_match_behind_a_proxy_root_path(hub: object) -> None:
    transport = httpx.ASGITransport(app=hub, root_path="/hub")  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
        problem(await http.post("/hub/v1/groups/g-1/messages", json={}), 401)
        problem(await http.put("/hub/v1/groups/g-1/messages"), 405)


async def test_malformed_json_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/auth/token", content=b"{not json", headers={"content-type": "application/json"}
    )
    problem(response, 400)


async def test_wrong_shapes_are_422(client: httpx.AsyncClient) -> None:
    for body in ({}, {"assertion": 1}, {"assertion": ""}, [], "x", None):
        problem(await client.post("/v1/auth/token", json=body), 422)


async def test_body_over_limit_is_413_by_header(client: httpx.AsyncClient, hub: Any) -> None:
    big = {"assertion": "x" * (parts(hub).settings.max_body_bytes + 1)}
    problem(await client.post("/v1/auth/token", json=big), 413)


async def test_body_over_limit_is_413_when_streamed(client: httpx.AsyncClient, hub: Any) -> None:
    limit = parts(hub).settings.max_body_bytes

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"assertion": "'
        for _ in range(limit // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    response = await client.post(
        "/v1/auth/token", content=chunks(), headers={"content-type": "application/json"}
    )
    problem(response, 413)


async def test_bad_content_length_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/auth/token",
        content=b"{}",
        headers={"content-length": "abc", "content-type": "application/json"},
    )
    problem(response, 400)


async def test_nul_characters_are_refused(client: httpx.AsyncClient, make_agent: MakeAgent) -> None:
    caller = await make_agent("caller")
    problem(await caller.request("GET", "/v1/agents/abc%00def"), 400)
    problem(await caller.request("GET", "/v1/agents", params={"q": "a\x00b"}), 400)
    key = AgentKey.generate()
    response = await client.post(
        "/v1/agents",
        json=card("nul\x00name", key),
        headers={"Authorization": f"Bearer {REGISTRATION_TOKEN}"},
    )
    problem(response, 422)
    skills = [{"id": "s", "name": "S", "tags": ["ok", "bad\x00"]}]
    response = await client.post(
        "/v1/agents",
        json=card("n", key, skills=skills),
        headers={"Authorization": f"Bearer {REGISTRATION_TOKEN}"},
    )
    problem(response, 422)


async def test_odd_inputs_never_500(client: httpx.AsyncClient, make_agent: MakeAgent) -> None:
    caller = await make_agent("caller")
    odd = ["\ud7ff", "é" * 300, "../../etc/passwd", "%2e%2e", "a" * 5000, "💥", "' OR '1'='1"]
    for text in odd:
        for path in (f"/v1/agents/{text}", f"/v1/agents?q={text}&skill={text}&tag={text}"):
            response = await caller.request("GET", path)
            assert response.status_code < 500, (path, response.text)
        response = await caller.request(
            "PATCH", f"/v1/agents/{caller.agent_id}", json={"description": text[:4000]}
        )
        assert response.status_code < 500


async def test_metrics_count_requests(client: httpx.AsyncClient) -> None:
    await client.get("/healthz")
    await client.get("/nowhere")
    text = (await client.get("/metrics")).text
    assert 'agenthub_http_requests_total{method="GET",route="/healthz",status="200"} 1.0' in text
    assert 'route="<unmatched>",status="404"' in text
    assert "agenthub_http_request_duration_seconds_bucket" in text
    assert "agenthub_open_streams" in text


async def test_tokens_issued_metric(client: httpx.AsyncClient, make_agent: MakeAgent) -> None:
    kit = await make_agent("alice")
    await kit.access_token()
    text = (await client.get("/metrics")).text
    assert "agenthub_access_tokens_issued_total 1.0" in text


async def test_registration_token_header_variants(client: httpx.AsyncClient) -> None:
    body = card("alice", AgentKey.generate())
    ok = await client.post(
        "/v1/agents", json=body, headers={"Authorization": f"bearer {REGISTRATION_TOKEN}"}
    )
    assert ok.status_code == 201


async def test_a_store_that_stays_locked_is_503_not_500(
    settings: Any, make_agent: Any, hub: Any
) -> None:
    """SQLite's write lock held past the busy timeout: a clear 503 to retry, nothing stored."""
    import sqlite3

    if not settings.database_url.startswith("sqlite"):
        pytest.skip("the lock is SQLite's; PostgreSQL waits on row locks instead")
    from app.core.models import StoredMessage
    from tests.support.groups import count, team
    from tests.support.messages import chat

    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    await leader.access_token()
    before = await count(hub, StoredMessage)
    path = settings.database_url.split("///", 1)[1]
    holder = sqlite3.connect(path, timeout=1)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, held by someone else
    try:
        body = chat(str(leader.agent_id), "blocked")
        response = await leader.request("POST", f"/v1/groups/{group['id']}/messages", json=body)
    finally:
        holder.rollback()
        holder.close()
    problem(response, 503)
    assert response.headers["retry-after"] == "1"
    assert await count(hub, StoredMessage) == before


def test_no_routers_paths_overlap_so_their_order_changes_no_match() -> None:
    """``app.main`` includes the record routes' routers first (``MATCHED_FIRST``) and
    documents them in ``DOCUMENTED`` order: that is only free while no path one router
    serves is matched by another router's routes."""
    import re

    from app.main import DOCUMENTED, MATCHED_FIRST

    assert all(any(router is r for r in DOCUMENTED) for router in MATCHED_FIRST)
    patterns = [
        (n, route.path_regex, route.path)
        for n, router in enumerate(DOCUMENTED)
        for route in router.routes
    ]
    assert len(patterns) > 40
    for n, _, path in patterns:
        example = re.sub(r"\{[^}]+\}", "x-1", path)  # each parameter a plain segment
        owners = {m for m, regex, _ in patterns if regex.match(example)}
        assert owners == {n}, (path, [DOCUMENTED[m].prefix for m in owners])


async def test_metrics_ask_for_the_metrics_token_once_it_is_set(settings: Any) -> None:
    from pydantic import SecretStr

    from tests.api.test_limits import hub_with
    from tests.support.hub import HUB_BASE

    settings.operator_token = SecretStr("o" * 40)
    async with (
        hub_with(settings, metrics_token=SecretStr("m" * 40)) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        problem(await http.get("/metrics"), 401)
        problem(await http.get("/metrics", headers={"Authorization": "Bearer wrong"}), 401)
        for token in ("m" * 40, "o" * 40):
            answer = await http.get("/metrics", headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 200 and "agenthub_" in answer.text


async def _postgres_shutting_down(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """A loopback peer that answers a connection as PostgreSQL does while it shuts down: no
    TLS, then FATAL 57P03 (what a hub met when its server was stopped under load)."""
    try:
        length = int.from_bytes(await reader.readexactly(4), "big")
        body = await reader.readexactly(length - 4)
        if body[:4] == (80877103).to_bytes(4, "big"):  # SSLRequest: no
            writer.write(b"N")
            length = int.from_bytes(await reader.readexactly(4), "big")
            await reader.readexactly(length - 4)  # the startup message
        fields = b"SFATAL\0VFATAL\0C57P03\0Mthe database system is shutting down\0\0"
        writer.write(b"E" + (len(fields) + 4).to_bytes(4, "big") + fields)
        await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def test_a_store_that_is_shutting_down_answers_503_not_500(settings: Any) -> None:
    from app.main import create_app

    server = await asyncio.start_server(_postgres_shutting_down, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings.database_url = f"postgresql+asyncpg://hub@127.0.0.1:{port}/hub"
    settings.database_pool_timeout_seconds = 1
    application = create_app(settings)
    try:
        async with application.router.lifespan_context(application):
            await _answers_store_unavailable(application)
    finally:
        server.close()
        await server.wait_closed()


DASHBOARD = Path(__file__).parents[2] / "deploy" / "grafana" / "agenthub-dashboard.json"


async def test_every_metric_the_dashboard_names_is_one_the_hub_exposes(
    client: httpx.AsyncClient,
) -> None:
    """deploy/grafana's dashboard asks only for series the hub's /metrics has (by family:
    ``# TYPE`` names, with a counter's ``_total`` and a histogram's ``_bucket``)."""
    text = (await client.get("/metrics")).text
    families: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            families.add(name)
            if kind == "counter":
                families.add(name.removesuffix("_total") + "_total")
            if kind == "histogram":
                families |= {f"{name}_bucket", f"{name}_sum", f"{name}_count"}
    dashboard = json.loads(DASHBOARD.read_text())
    named = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"agenthub_[a-z_]+", target["expr"])
    }
    assert named and named <= families, named - families
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])


async def test_the_revocation_list_is_signed_once_for_the_gets_that_find_it_current(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    for _ in range(3):
        assert (await client.get("/.well-known/agenthub-crl.pem")).status_code == 200
    text = (await client.get("/metrics")).text
    assert "agenthub_crl_signed_total 1.0" in text and "agenthub_crl_entries 0.0" in text
    kit = await make_agent("alice")  # a revoked certificate: a new list, naming it
    assert kit.agent_id is not None
    csr = kit.key.certificate_request("ignored")
    issued = await kit.request("POST", f"/v1/agents/{kit.agent_id}/certificates", json={"csr": csr})
    serial = kit.raise_or_json(issued)["serial"]
    gone = await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{serial}")
    assert gone.status_code == 204
    assert (await client.get("/.well-known/agenthub-crl.pem")).status_code == 200
    text = (await client.get("/metrics")).text
    assert "agenthub_crl_signed_total 2.0" in text and "agenthub_crl_entries 1.0" in text


async def test_records_are_counted_by_kind_with_their_latency(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    session = kit.raise_or_json(await kit.request("POST", "/v1/sessions", json={"receivers": []}))
    group = await kit.groups.create(session["id"], "metered", join_policy="open")
    for n in range(3):
        await kit.groups.post(group.id, f"post {n}", role="leader")
    text = (await client.get("/metrics")).text
    assert 'agenthub_records_total{kind="message"} 3.0' in text
    assert "agenthub_record_duration_seconds_count 3.0" in text
    assert "agenthub_stream_queued_frames 0.0" in text
