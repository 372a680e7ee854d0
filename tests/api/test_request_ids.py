"""Every answer carries the request's ``X-Request-ID`` (the caller's when valid, else a new
one), and every request is one ``app.access`` record with its fields."""

from __future__ import annotations

import logging
import re
from typing import Any

import httpx
import pytest

from agenthub.transport import request_id
from app.config import Settings
from app.main import create_app
from tests.support import LOOPBACK
from tests.support.hub import empty_tables, problem, registered
from tests.support.live import serving

MakeAgent = Any
NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def access(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """The hub's access records (``access.records``), as they are made."""
    caplog.set_level(logging.INFO, logger="app.access")
    return caplog


def line_of(access: pytest.LogCaptureFixture, request_id: str) -> logging.LogRecord:
    records = access.records
    found = [r for r in records if r.name == "app.access" and r.request_id == request_id]  # type: ignore[attr-defined]
    assert len(found) == 1, [r.getMessage() for r in records]
    return found[0]


async def test_an_id_sent_is_returned_and_logged_with_the_route_and_agent(
    client: httpx.AsyncClient, make_agent: MakeAgent, access: pytest.LogCaptureFixture
) -> None:
    kit = await make_agent("logged")
    headers = {"Authorization": f"Bearer {await kit.access_token()}", "X-Request-ID": "call-42"}
    response = await client.get(f"/v1/agents/{kit.agent_id}", headers=headers)
    assert response.status_code == 200
    assert response.headers["x-request-id"] == "call-42"
    line = line_of(access, "call-42")
    fields = {k: getattr(line, k) for k in ("method", "route", "path", "status", "agent_id")}
    assert fields == {
        "method": "GET",
        "route": "/v1/agents/{agentId}",
        "path": f"/v1/agents/{kit.agent_id}",
        "status": 200,
        "agent_id": kit.agent_id,
    }
    assert isinstance(line.duration_ms, float) and line.duration_ms >= 0  # type: ignore[attr-defined]
    assert line.client.startswith("127.0.0.1:")  # type: ignore[attr-defined]
    assert f"agent={kit.agent_id} request=call-42" in line.getMessage()


@pytest.mark.parametrize("sent", [b"has space", b"x" * 129, b"caf\xe9", b"tab\there", b""])
async def test_a_bad_id_is_replaced_by_a_new_one(
    client: httpx.AsyncClient, sent: bytes, access: pytest.LogCaptureFixture
) -> None:
    response = await client.get("/healthz", headers={"X-Request-ID": sent})
    assert response.status_code == 200
    made = response.headers["x-request-id"]
    assert NEW_ID.fullmatch(made), made
    assert line_of(access, made).status == 200  # type: ignore[attr-defined]


async def test_the_longest_id_taken_is_128_characters(client: httpx.AsyncClient) -> None:
    sent = "!~" * 64
    response = await client.get("/healthz", headers={"X-Request-ID": sent})
    assert response.headers["x-request-id"] == sent


async def test_an_answer_without_an_id_sent_gets_a_new_one_each(client: httpx.AsyncClient) -> None:
    ids = {(await client.get("/healthz")).headers["x-request-id"] for _ in range(2)}
    assert len(ids) == 2 and all(NEW_ID.fullmatch(i) for i in ids)


async def test_a_problem_carries_the_id_and_is_logged_without_an_agent(
    client: httpx.AsyncClient, access: pytest.LogCaptureFixture
) -> None:
    response = await client.get("/v1/agents/someone", headers={"X-Request-ID": "no-token"})
    problem(response, 401)
    assert response.headers["x-request-id"] == "no-token"
    line = line_of(access, "no-token")
    assert (line.status, line.route, line.agent_id) == (401, "/v1/agents/{agentId}", None)  # type: ignore[attr-defined]


async def test_a_refusal_by_the_middleware_carries_the_id(
    client: httpx.AsyncClient, access: pytest.LogCaptureFixture
) -> None:
    response = await client.get("/v1/agents?q=%00", headers={"X-Request-ID": "nul"})
    problem(response, 400)
    assert response.headers["x-request-id"] == "nul"
    assert line_of(access, "nul").status == 400  # type: ignore[attr-defined]


async def test_an_unmatched_path_is_logged_as_it_came(
    client: httpx.AsyncClient, access: pytest.LogCaptureFixture
) -> None:
    response = await client.get("/no/such/page", headers={"X-Request-ID": "lost"})
    assert response.status_code == 404
    assert response.headers["x-request-id"] == "lost"
    line = line_of(access, "lost")
    assert (line.route, line.status) == ("/no/such/page", 404)  # type: ignore[attr-defined]


async def test_a_path_cannot_forge_a_line_of_the_text_log(
    client: httpx.AsyncClient, access: pytest.LogCaptureFixture
) -> None:
    """The text line names the path as it came, percent-encoded: a ``%0a`` in it is no
    line break of the log (the JSON format escapes the decoded path by itself)."""
    forged = "/no/%0d%0a2026-01-01T00:00:00Z INFO    app: forged"
    await client.get(forged, headers={"X-Request-ID": "forger"})
    line = line_of(access, "forger")
    message = line.getMessage()
    assert "\n" not in message and "\r" not in message, message
    assert '"GET /no/%0d%0a2026-01-01T00:00:00Z%20INFO%20%20%20%20app:%20forged" 404' in message
    assert line.path == "/no/\r\n2026-01-01T00:00:00Z INFO    app: forged"  # type: ignore[attr-defined]


async def test_an_event_stream_carries_the_id_and_is_logged_when_it_opens(
    settings: Settings, access: pytest.LogCaptureFixture
) -> None:
    async with serving(create_app(settings)) as server:
        kit = await registered(server.url, "listener")
        headers = {"Authorization": f"Bearer {await kit.access_token()}", "X-Request-ID": "sse-1"}
        async with (
            httpx.AsyncClient(timeout=LOOPBACK) as http,
            http.stream("GET", f"{server.url}/v1/agents/me/events", headers=headers) as events,
        ):
            assert events.status_code == 200
            assert events.headers["content-type"].startswith("text/event-stream")
            assert events.headers["x-request-id"] == "sse-1"
            line = line_of(access, "sse-1")
        await kit.aclose()
    await empty_tables(settings.database_url)
    assert (line.route, line.status, line.agent_id) == (  # type: ignore[attr-defined]
        "/v1/agents/me/events",
        200,
        kit.agent_id,
    )


async def test_the_kit_sends_the_id_of_the_request_it_handles(
    settings: Settings, access: pytest.LogCaptureFixture
) -> None:
    """HubClient's calls within ``request_id`` (the kit's endpoint sets it from its caller's
    header) send that id; the others a new one each."""
    async with serving(create_app(settings)) as server:
        with request_id("handling-7"):
            kit = await registered(server.url, "caller")
        await kit.access_token()  # outside: an id of its own
        await kit.aclose()
    await empty_tables(settings.database_url)
    lines = [r for r in access.records if r.name == "app.access"]
    sent = {(r.method, r.route): r.request_id for r in lines}  # type: ignore[attr-defined]
    assert sent[("POST", "/v1/agents")] == "handling-7"
    assert NEW_ID.fullmatch(sent[("POST", "/v1/auth/token")]), sent
