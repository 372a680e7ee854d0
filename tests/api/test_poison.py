"""No input is a 500, and a refused input changes nothing: what no store or serializer can
hold (lone UTF-16 surrogates, NaN, deep nesting, out-of-range numbers, forged cursors) is
refused before it can be committed, wherever in a body it stands."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from typing import Any

import httpx
import orjson
import pytest
from sqlmodel import col

from app.core.models import StoredMessage
from app.groups.models import Group
from app.sessions.models import Session
from tests.support.groups import count, team
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat, command

SURROGATE = "\ud800"  # httpx sends it as the JSON escape "\ud800"


async def send(agent: Any, method: str, path: str, body: Any) -> httpx.Response:
    """``body`` as JSON with every non-ASCII character escaped, as ``\\ud800`` must be."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)  # the client's encoder must get 2,000 levels out
    try:
        content = json.dumps(body).encode()
    finally:
        sys.setrecursionlimit(limit)
    headers = {"Content-Type": "application/json"}
    return await agent.request(method, path, content=content, headers=headers)


def nested(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = {"deeper": value}
    return value


async def _session(leader: Any, partner: Any) -> str:
    body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p"}]}
    response = await leader.request("POST", "/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


POISONS = {
    "surrogate": SURROGATE,
    "surrogate key": {SURROGATE: 1},
    "nested 40": nested(40),
    "nested 300": nested(300),  # past orjson's serializer limit (254), within its parser's
    "nested 2000": nested(2000),
}


@pytest.mark.parametrize("poison", POISONS, ids=list(POISONS))
async def test_a_session_message_carrying_poison_anywhere_is_422_and_stores_nothing(
    make_agent: MakeAgent, hub: Any, poison: str
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    sid = await _session(leader, partner)
    bad = POISONS[poison]
    bodies = [
        chat(
            str(leader.agent_id),
            "x",
            dataItems=[{"type": "text", "text": "x", "metadata": {"k": bad}}],
        ),
        chat(str(leader.agent_id), "x", dataItems=[{"type": "data", "data": {"k": bad}}]),
        command(
            str(leader.agent_id), "start", partnerId=partner.agent_id, commandParams={"k": bad}
        ),
    ]
    if isinstance(bad, str):
        bodies.append(chat(str(leader.agent_id), bad))
    before = await count(hub, StoredMessage)
    for body in bodies:
        answer = await send(leader, "POST", f"/v1/sessions/{sid}/messages", body)
        problem(answer, 422)
    assert await count(hub, StoredMessage) == before
    for reader in (leader, partner):  # every read of the session still works
        assert (await reader.request("GET", "/v1/sessions")).status_code == 200
        assert (await reader.request("GET", "/v1/tasks")).status_code == 200
        listed = await reader.request("GET", f"/v1/sessions/{sid}/messages")
        assert listed.status_code == 200


async def test_receiver_params_and_registration_cards_refuse_poison_too(
    make_agent: MakeAgent, hub: Any, client: httpx.AsyncClient, operator_headers: dict[str, str]
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("victim")
    before = await count(hub, Session)
    for bad in (SURROGATE, nested(40)):
        body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p", "params": {"k": bad}}]}
        problem(await send(leader, "POST", "/v1/sessions", body), 422)
    assert await count(hub, Session) == before
    assert (await partner.request("GET", "/v1/sessions")).status_code == 200
    card = {"name": "x", "description": f"bad {SURROGATE}", "publicJwk": leader.key.public_jwk}
    content = json.dumps(card).encode()
    headers = {**operator_headers, "Content-Type": "application/json"}
    problem(await client.post("/v1/agents", content=content, headers=headers), 422)


async def test_non_json_numbers_are_refused_and_huge_integers_never_break_a_read(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    url = f"/v1/groups/{group['id']}/messages"
    base = chat(str(member.agent_id), "numbers", role="partner")
    raw = orjson.dumps(base).decode()
    for number in ("NaN", "Infinity", "1e400"):
        doc = raw.replace('"numbers"', '"numbers","x":' + number, 1)
        body = doc.replace('"type":"text"', '"type":"text","metadata":{"n":' + number + "}", 1)
        answer = await member.request(
            "POST", url, content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code in (400, 422), answer.text
    big = raw.replace('"type":"text"', '"type":"text","metadata":{"n":' + str(2**64) + "}", 1)
    answer = await member.request(
        "POST", url, content=big, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code in (201, 422), answer.text
    history = await leader.request("GET", url)
    assert history.status_code == 200


async def test_one_poisoned_post_fails_alone_in_a_shared_batch(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader = await make_agent("leader")
    members = [await make_agent(f"m{i}") for i in range(4)]
    group = await team(leader, *members)
    gid = group["id"]

    async def post(member: Any, n: int) -> httpx.Response:
        items = [{"type": "text", "text": f"m{n}"}]
        if n % 2:
            items[0]["metadata"] = {"k": SURROGATE if n % 4 == 1 else nested(300)}
        body = chat(str(member.agent_id), "x", role="partner", dataItems=items)
        return await send(member, "POST", f"/v1/groups/{gid}/messages", body)

    before = await count(hub, StoredMessage, col(StoredMessage.group_id) == gid)
    answers = await asyncio.gather(*(post(m, n) for n in range(20) for m in members))
    codes = [a.status_code for a in answers]
    assert codes.count(201) == 40 and codes.count(422) == 40, codes
    stored = await count(hub, StoredMessage, col(StoredMessage.group_id) == gid)
    assert stored - before == 40
    last = await count(hub, Group, col(Group.id) == gid)
    assert last == 1


def _cursor(values: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


async def test_forged_cursors_are_400_never_500(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    sid = await _session(leader, partner)
    forged = {
        "/v1/sessions": [
            _cursor(["2026-01-01T00:00:00", "x"]),  # a naive timestamp
            _cursor(["not a time", "x"]),
            _cursor([2**70, "x"]),
        ],
        "/v1/tasks": [_cursor(["2026-01-01T00:00:00", "x"])],
        f"/v1/sessions/{sid}/messages": [_cursor([2**63]), _cursor([-(2**70)]), _cursor(["1"])],
        "/v1/agents": [_cursor([1.5, 2**70]), _cursor(["x" * 5000])],
    }
    for path, cursors in forged.items():
        for cursor in cursors:
            key = "after" if path.endswith("/messages") else "cursor"
            answer = await leader.request("GET", path, params={key: cursor})
            problem(answer, 422 if len(cursor) > 1000 else 400)
