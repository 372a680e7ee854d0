"""`agenthub serve` as a user runs it: a real process on a loopback port, a fresh directory."""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient
from tests.support import LOOPBACK
from tests.support.cli import ServedHub, clean_env, run_cli
from tests.support.hub import empty_tables
from tests.support.live import free_port


@pytest.fixture(autouse=True)
def shared_store_emptied() -> Iterator[None]:
    """On PostgreSQL these hubs share the suite's database: what they stored goes with them
    (the console's test counted two agents these had left)."""
    yield
    if url := os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        asyncio.run(empty_tables(url))


def _store_env(**extra: str) -> dict[str, str]:
    env = clean_env(AGENTHUB_OPERATOR_TOKEN="op-token", **extra)
    if os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        env["AGENTHUB_DATABASE_URL"] = os.environ["AGENTHUB_TEST_DATABASE_URL"]
    return env


def test_serve_creates_key_and_store_and_serves_agents(tmp_path: Path) -> None:
    with ServedHub(tmp_path, _store_env()) as hub:
        result = asyncio.run(_tour(hub.url, tmp_path))
    output = hub.output
    assert stat.S_IMODE(os.stat(tmp_path / "agenthub-signing-key.pem").st_mode) == 0o600
    if not os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        assert (tmp_path / "agenthub.db").exists()
    assert result["found"] == [result["alice"]]
    assert result["status"] == "online"
    assert result["ready"] == 200
    assert result["token endpoint"] == f"{hub.url}/v1/auth/token"
    assert 'route="/v1/auth/token",status="200"' in result["metrics"]
    # the startup summary: store, broker, issuer, key made now, how agents register
    assert "schema at head (0017)" in output
    assert "issuer 'agenthub', broker memory://" in output and "(made now, kid " in output
    assert "registration: agents register with the operator token" in output
    assert "op-token" not in output
    # where to look: the page at /, the console, the API's docs
    assert f"open {hub.url}/ : the console at {hub.url}/console, the API's docs at " in output


async def _tour(base: str, cwd: Path) -> dict[str, Any]:
    alice_key = AgentKey.load_or_create(cwd / "alice.pem")
    async with (
        HubClient(base, key=alice_key) as alice,
        HubClient(base, key=AgentKey.generate()) as bob,
    ):
        await alice.register(
            {"name": "alice", "description": "tour guide"}, registration_token="op-token"
        )
        await bob.register({"name": "bob", "description": "visitor"}, registration_token="op-token")
        await alice.authenticate()
        found = await bob.list_agents(q="tour")
        card = await bob.get_agent(alice.agent_id or "")
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            ready = (await http.get(f"{base}/readyz")).status_code
            metrics = (await http.get(f"{base}/metrics")).text
            evil = {"Host": "evil.example"}  # on loopback the hub is where it serves
            found_at = (await http.get(f"{base}/.well-known/agenthub.json", headers=evil)).json()
            for agent in (alice, bob):
                await http.delete(
                    f"{base}/v1/agents/{agent.agent_id}",
                    headers={"Authorization": "Bearer op-token"},
                )
        return {
            "found": [a.id for a in found.items],
            "alice": alice.agent_id,
            "status": card.status,
            "ready": ready,
            "metrics": metrics,
            "token endpoint": found_at["tokenEndpoint"],
        }


def test_readyz_is_503_until_migrated_and_loops_back_off_quietly(tmp_path: Path) -> None:
    env = clean_env(
        AGENTHUB_DATABASE_URL="sqlite+aiosqlite:///./fresh.db", AGENTHUB_TRIGGER_POLL_SECONDS="0.2"
    )
    with ServedHub(tmp_path, env, "--no-migrate") as hub:
        before = httpx.get(f"{hub.url}/readyz")
        time.sleep(1.5)  # the trigger loop tries every 0.2 s: it must not log every time
        assert run_cli("migrate", cwd=tmp_path, env=env).returncode == 0
        after = httpx.get(f"{hub.url}/readyz")
    assert before.status_code == 503
    assert before.headers["content-type"].startswith("application/problem+json")
    problem = before.json()
    assert problem["type"].endswith("/schema-not-migrated")
    assert "run `agenthub migrate`" in problem["detail"]
    assert after.status_code == 200
    lines = hub.output.splitlines()
    assert "Traceback" not in hub.output
    assert sum("firing due triggers failed" in line for line in lines) == 1, hub.output
    assert any("schema is empty (never migrated)" in line for line in lines)


def test_a_shutdown_ends_open_streams_cleanly_and_quietly(tmp_path: Path) -> None:
    hub = ServedHub(tmp_path, _store_env()).wait_until_up()

    async def hold_a_stream() -> str:
        async with HubClient(hub.url, key=AgentKey.generate()) as kit:
            await kit.register({"name": "s", "description": "d"}, registration_token="op-token")
            headers = {"Authorization": f"Bearer {await kit.access_token()}"}
            async with (
                httpx.AsyncClient(timeout=10) as http,
                http.stream("GET", f"{hub.url}/v1/agents/me/events", headers=headers) as events,
            ):
                assert events.status_code == 200
                await asyncio.to_thread(hub.stop)
                return (await events.aread()).decode()  # raises if the body is cut off

    asyncio.run(hold_a_stream())
    assert hub.proc.returncode == 0
    assert " ERROR " not in hub.output, hub.output
    assert "Traceback" not in hub.output


def test_json_logs_are_one_object_per_line(tmp_path: Path) -> None:
    with ServedHub(tmp_path, _store_env(AGENTHUB_LOG_FORMAT="json")) as hub:
        httpx.get(f"{hub.url}/healthz")
    entries = [json.loads(line) for line in hub.output.splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= e.keys() for e in entries)
    loggers = {e["logger"] for e in entries}
    assert {"app.cli", "app.main", "uvicorn.error", "app.access"} <= loggers
    assert all(e["time"].endswith("Z") for e in entries)


def test_secrets_can_come_from_files(tmp_path: Path) -> None:
    token = tmp_path / "operator-token"
    token.write_text("from-a-file\n")
    url = tmp_path / "database-url"
    url.write_text(f"sqlite+aiosqlite:///{tmp_path / 'secret.db'}\n")
    env = clean_env(AGENTHUB_OPERATOR_TOKEN_FILE=str(token), AGENTHUB_DATABASE_URL_FILE=str(url))
    with ServedHub(tmp_path, env) as hub:

        async def register() -> str | None:
            async with HubClient(hub.url, key=AgentKey.generate()) as kit:
                await kit.register(
                    {"name": "f", "description": "d"}, registration_token="from-a-file"
                )
                return kit.agent_id

        assert asyncio.run(register())
    assert (tmp_path / "secret.db").exists()
    assert "from-a-file" not in hub.output


def test_the_hub_serves_https_with_a_certificate_of_the_agents_ca(tmp_path: Path) -> None:
    """`agenthub hub-certificate` signs the hub's own certificate with the agents' CA; the
    hub serves HTTPS with it, and a kit agent that pins that CA registers and signs in."""
    env = _store_env()
    made = run_cli("hub-certificate", "127.0.0.1", "localhost", cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    assert "AGENTHUB_TLS_CERT_FILE=hub-cert.pem" in made.stderr
    assert "hub_ca='agenthub-tls-ca.pem'" in made.stderr
    assert stat.S_IMODE(os.stat(tmp_path / "hub-key.pem").st_mode) == 0o600
    ca = tmp_path / "agenthub-tls-ca.pem"  # the hub's TLS CA, not the agents' CA
    env |= {"AGENTHUB_TLS_CERT_FILE": "hub-cert.pem", "AGENTHUB_TLS_KEY_FILE": "hub-key.pem"}
    with ServedHub(tmp_path, env, ca=ca) as hub:
        assert hub.url.startswith("https://")

        async def sign_in() -> str:
            key = AgentKey.generate()
            async with HubClient(hub.url, key=key, hub_ca=ca) as kit:
                card = {"name": "tls", "description": "over https", "publicJwk": key.public_jwk}
                await kit.register(card, registration_token="op-token")
                await kit.access_token()
                return kit.agent_id or ""

        assert asyncio.run(sign_in())
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.get(f"{hub.url}/healthz")  # the system's CAs do not know the hub's TLS CA
        # the agents' CA, whose leaves any agent can get, does not vouch for the hub
        agents_ca = ssl.create_default_context(cafile=tmp_path / "agenthub-ca.pem")
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.get(f"{hub.url}/healthz", verify=agents_ca)
    alone = _store_env(AGENTHUB_TLS_CERT_FILE="hub-cert.pem")
    refused = run_cli("check", cwd=tmp_path, env=alone)
    assert refused.returncode == 2 and "AGENTHUB_TLS_KEY_FILE" in refused.stderr


@pytest.mark.slow
def test_serve_says_what_it_ignored_made_or_could_not_reach(tmp_path: Path) -> None:
    """A misspelled setting (with the closest known name), a Redis broker that does not answer
    at start, and a signing key's folder made now: each one warning line, and it serves."""
    env = clean_env(
        AGENTHUB_OPERATOR_TOKEN="op-token",
        AGENTHUB_DATABSE_URL="sqlite+aiosqlite:///./elsewhere.db",
        AGENTHUB_BROKER_URL=f"redis://:broker-secret@127.0.0.1:{free_port()}/0",
        AGENTHUB_SIGNING_KEY_FILE="keys/hub/signing-key.pem",
    )
    with ServedHub(tmp_path, env) as hub:
        assert httpx.get(f"{hub.url}/healthz").status_code == 200
    warnings = [line for line in hub.output.splitlines() if " WARNING " in line]
    assert any(
        "AGENTHUB_DATABSE_URL: no setting has this name (set in the environment), so it is "
        "ignored; did you mean AGENTHUB_DATABASE_URL?" in line
        for line in warnings
    ), hub.output
    masked = env["AGENTHUB_BROKER_URL"].replace("broker-secret", "***")
    assert any(f"broker {masked} does not answer: " in line for line in warnings), hub.output
    assert "broker-secret" not in hub.output  # nowhere in its log, the start-up summary too
    assert any("made the folder keys/hub for the signing key" in line for line in warnings)
    assert (tmp_path / "keys" / "hub" / "signing-key.pem").exists()
    assert "Traceback" not in hub.output
