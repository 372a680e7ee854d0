"""`agenthub serve` as a user runs it: a real process on a loopback port, a fresh directory."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient

STARTUP_SECONDS = 30


@pytest.fixture
def served_hub(tmp_path: Path, free_port: int) -> Iterator[tuple[str, Path]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTHUB_")}
    env["AGENTHUB_OPERATOR_TOKEN"] = "op-token"
    if os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        env["AGENTHUB_DATABASE_URL"] = os.environ["AGENTHUB_TEST_DATABASE_URL"]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.cli",
            "serve",
            "--port",
            str(free_port),
            "--log-level",
            "warning",
        ],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(Path(__file__).parents[1])},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{free_port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the hub did not start"
            time.sleep(0.1)
        yield base, tmp_path
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_serve_creates_key_and_store_and_serves_agents(served_hub: tuple[str, Path]) -> None:
    base, cwd = served_hub
    key_file = cwd / "agenthub-signing-key.pem"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    if not os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        assert (cwd / "agenthub.db").exists()

    async def tour() -> dict[str, Any]:
        alice_key = AgentKey.load_or_create(cwd / "alice.pem")
        async with (
            HubClient(base, key=alice_key) as alice,
            HubClient(base, key=AgentKey.generate()) as bob,
        ):
            await alice.register(
                {"name": "alice", "description": "tour guide"}, registration_token="op-token"
            )
            await bob.register(
                {"name": "bob", "description": "visitor"}, registration_token="op-token"
            )
            await alice.authenticate()
            found = await bob.list_agents(q="tour")
            card = await bob.get_agent(alice.agent_id or "")
            async with httpx.AsyncClient() as http:
                ready = (await http.get(f"{base}/readyz")).status_code
                metrics = (await http.get(f"{base}/metrics")).text
                await http.delete(
                    f"{base}/v1/agents/{alice.agent_id}",
                    headers={"Authorization": "Bearer op-token"},
                )
                await http.delete(
                    f"{base}/v1/agents/{bob.agent_id}", headers={"Authorization": "Bearer op-token"}
                )
            return {
                "found": [a.id for a in found.items],
                "alice": alice.agent_id,
                "status": card.status,
                "ready": ready,
                "metrics": metrics,
            }

    result = asyncio.run(tour())
    assert result["found"] == [result["alice"]]
    assert result["status"] == "online"
    assert result["ready"] == 200
    assert 'route="/v1/auth/token",status="200"' in result["metrics"]
