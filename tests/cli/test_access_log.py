"""`agenthub serve`'s access log, as an operator reads it: one JSON object a request with its
fields as keys; nothing at ``--log-level warning`` or with ``--no-access-log``."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient
from tests.support.cli import ServedHub, clean_env
from tests.support.hub import empty_tables


@pytest.fixture(autouse=True)
def shared_store_emptied() -> Iterator[None]:
    yield
    if url := os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        asyncio.run(empty_tables(url))


def _env(**extra: str) -> dict[str, str]:
    env = clean_env(AGENTHUB_OPERATOR_TOKEN="op-token", **extra)
    if os.environ.get("AGENTHUB_TEST_DATABASE_URL"):
        env["AGENTHUB_DATABASE_URL"] = os.environ["AGENTHUB_TEST_DATABASE_URL"]
    return env


async def _calls(url: str) -> tuple[str, httpx.Response]:
    """An agent's authenticated call with an id of ours; returns the agent and the answer."""
    async with HubClient(url, key=AgentKey.generate()) as kit:
        await kit.register({"name": "logged", "description": "d"}, registration_token="op-token")
        headers = {"Authorization": f"Bearer {await kit.access_token()}", "X-Request-ID": "op-1"}
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(f"{url}/v1/agents/{kit.agent_id}", headers=headers)
        assert kit.agent_id is not None
        return kit.agent_id, answer


def test_a_json_access_line_has_the_requests_fields_as_keys(tmp_path: Path) -> None:
    with ServedHub(tmp_path, _env(AGENTHUB_LOG_FORMAT="json")) as hub:
        agent_id, answer = asyncio.run(_calls(hub.url))
    assert answer.headers["x-request-id"] == "op-1"
    entries: list[dict[str, Any]] = [json.loads(line) for line in hub.output.splitlines()]
    assert not [e for e in entries if e["logger"] == "uvicorn.access"]  # the hub's line only
    ours = [e for e in entries if e.get("request_id") == "op-1"]
    assert len(ours) == 1, hub.output
    line = ours[0]
    assert line["logger"] == "app.access" and line["level"] == "INFO"
    assert {k: line[k] for k in ("method", "route", "status", "agent_id")} == {
        "method": "GET",
        "route": "/v1/agents/{agentId}",
        "status": 200,
        "agent_id": agent_id,
    }
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["client"].startswith("127.0.0.1:")
    assert line["path"] == f"/v1/agents/{agent_id}"
    healthz = [e for e in entries if e.get("route") == "/healthz"]
    assert healthz and all(e["agent_id"] is None for e in healthz)


@pytest.mark.parametrize("quiet", [["--log-level", "warning"], ["--no-access-log"]])
def test_no_access_lines_when_asked_for_quiet(tmp_path: Path, quiet: list[str]) -> None:
    with ServedHub(tmp_path, _env(), *quiet) as hub:
        _, answer = asyncio.run(_calls(hub.url))
    assert answer.status_code == 200 and answer.headers["x-request-id"] == "op-1"
    assert "op-1" not in hub.output
    assert '"GET /' not in hub.output and '"POST /' not in hub.output, hub.output
