"""One ``X-Request-ID`` follows a call: the leader sends the id of the request it is handling,
the partner's endpoint takes it, and the partner's records of the call carry it to the hub."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from agenthub.transport import current_request_id, request_id, taking_request_ids
from tests.support.kit import EchoHandler, MakeLiveAgent, settled


async def test_a_partners_records_carry_the_id_of_the_call(
    make_live_agent: MakeLiveAgent, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="app.access")
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id], title="ids")
    with request_id("leader-handling-9"):  # as inside a handler of the leader's own
        await leader.leader.start(
            partner.agent_id, session_id=session.id, text="hi", task_id="t-ids"
        )
    await settled(leader, partner)
    lines = [r for r in caplog.records if r.name == "app.access"]
    partners = {
        r.request_id  # type: ignore[attr-defined]
        for r in lines
        if r.agent_id == partner.agent_id and r.route.startswith("/v1/sessions/")  # type: ignore[attr-defined]
    }
    assert partners == {"leader-handling-9"}, [r.getMessage() for r in lines]


async def test_a_call_outside_any_handler_shares_one_id_with_its_records(
    make_live_agent: MakeLiveAgent, caplog: pytest.LogCaptureFixture
) -> None:
    """The leader's record of its command, its call and the partner's records of the call."""
    caplog.set_level(logging.INFO, logger="app.access")
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id], title="one id")
    assert current_request_id() is None
    await leader.leader.start(partner.agent_id, session_id=session.id, text="hi", task_id="t-1")
    await settled(leader, partner)
    records = {
        (r.agent_id, r.request_id)  # type: ignore[attr-defined]
        for r in caplog.records
        if r.name == "app.access"
        and r.route.startswith("/v1/sessions/")  # type: ignore[attr-defined]
        and r.method == "POST"  # type: ignore[attr-defined]
    }
    ids = {request for _, request in records}
    assert {agent for agent, _ in records} == {leader.agent_id, partner.agent_id}, records
    assert len(ids) == 1, records


async def scope_of(header: bytes | None) -> str | None:
    """The id a request is handled under; the answer carries it back."""
    seen: list[str | None] = []
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(current_request_id())
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def send(message: Any) -> None:
        sent.append(message)

    headers = [] if header is None else [(b"x-request-id", header)]
    await taking_request_ids(app)({"type": "http", "headers": headers}, None, send)
    assert current_request_id() is None  # only while the request is handled
    assert sent[0]["headers"] == [(b"x-request-id", (seen[0] or "").encode())]
    return seen[0]


async def test_the_endpoint_takes_a_valid_id_and_makes_one_otherwise() -> None:
    assert await scope_of(b"abc-1") == "abc-1"
    for bad in (None, b"two words", b"x" * 129, b"caf\xe9"):
        made = await scope_of(bad)
        assert made is not None and re.fullmatch(r"[0-9a-f]{32}", made), (bad, made)
