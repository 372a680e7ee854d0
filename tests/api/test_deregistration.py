"""Deregistering an agent ends its places: memberships, sessions it leads, receiver places."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.groups import team
from tests.support.hub import OPERATOR_TOKEN, MakeAgent


async def _deregister(client: httpx.AsyncClient, agent_id: str | None) -> None:
    gone = await client.delete(
        f"/v1/agents/{agent_id}", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    )
    assert gone.status_code == 204, gone.text


async def test_a_deregistered_member_is_removed_from_its_groups(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    leader, member, other = [await make_agent(n) for n in ("leader", "member", "other")]
    group = await team(leader, member, other)
    await _deregister(client, member.agent_id)
    members = (await leader.request("GET", f"/v1/groups/{group['id']}/members")).json()
    states = {m["agentId"]: m["state"] for m in members["items"]}
    assert states[member.agent_id] == "removed"
    assert states[other.agent_id] == "active"
    events = await leader.request("GET", f"/v1/groups/{group['id']}/messages")
    assert events.status_code == 200


async def test_a_deregistered_owner_concludes_its_groups_and_closes_its_sessions(
    make_agent: MakeAgent, client: httpx.AsyncClient, hub: Any
) -> None:
    owner, member = await make_agent("owner"), await make_agent("member")
    group = await team(owner, member)
    session_id = group["sessionId"]
    await _deregister(client, owner.agent_id)
    seen = await member.request("GET", f"/v1/groups/{group['id']}")
    assert seen.json()["conversationState"] == "conclusion"
    session = await member.request("GET", f"/v1/sessions/{session_id}")
    assert session.json()["state"] == "closed"


async def test_a_deregistered_receiver_leaves_the_sessions_it_was_in(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    leader, partner, stays = (
        await make_agent("leader"),
        await make_agent("partner"),
        await make_agent("stays"),
    )
    body = {
        "receivers": [
            {"agentId": partner.agent_id, "mode": "p2p"},
            {"agentId": stays.agent_id, "mode": "p2p"},
        ]
    }
    created = await leader.request("POST", "/v1/sessions", json=body)
    assert created.status_code == 201
    await _deregister(client, partner.agent_id)
    view = (await leader.request("GET", f"/v1/sessions/{created.json()['id']}")).json()
    assert [r["agentId"] for r in view["receivers"]] == [stays.agent_id]
    assert view["state"] == "open"
