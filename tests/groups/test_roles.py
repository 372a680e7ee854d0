"""senderRole and the right to form groups follow the sender's actual part."""

from __future__ import annotations

import asyncio
from typing import Any

from app.core.models import StoredMessage
from app.groups.models import Group
from tests.support.groups import count, open_session, team
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat, command, result


async def test_only_managers_speak_as_leader_in_a_group_on_either_path(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    url = f"/v1/groups/{group['id']}/messages"
    before = await count(hub, StoredMessage)
    claims = await asyncio.gather(  # concurrent: the batch writer takes them together
        *(
            member.request("POST", url, json=chat(str(member.agent_id), f"i lead {i}"))
            for i in range(5)
        )
    )
    for answer in claims:
        problem(answer, 403)
    assert await count(hub, StoredMessage) == before
    spoken = await leader.request("POST", url, json=chat(str(leader.agent_id), "i do lead"))
    assert spoken.status_code == 201
    partner = await member.request(
        "POST", url, json=chat(str(member.agent_id), "ok", role="partner")
    )
    assert partner.status_code == 201


async def test_task_messages_carry_the_role_of_their_kind(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p"}]}
    sid = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
    url = f"/v1/sessions/{sid}/messages"
    start = command(str(leader.agent_id), "start", task_id="t-r", partnerId=partner.agent_id)
    problem(await leader.request("POST", url, json={**start, "senderRole": "partner"}), 403)
    assert (await leader.request("POST", url, json=start)).status_code == 201
    report = result(str(partner.agent_id), "t-r", "accepted")
    problem(await partner.request("POST", url, json={**report, "senderRole": "leader"}), 403)
    assert (await partner.request("POST", url, json=report)).status_code == 201
    problem(await partner.request("POST", url, json=chat(str(partner.agent_id), "boss")), 403)


async def test_only_the_sessions_leader_forms_its_groups(make_agent: MakeAgent, hub: Any) -> None:
    leader, receiver = await make_agent("leader"), await make_agent("receiver")
    sid = await open_session(leader, receiver)
    before = await count(hub, Group)
    problem(
        await receiver.request("POST", "/v1/groups", json={"sessionId": sid, "name": "mine"}), 403
    )
    assert await count(hub, Group) == before
    formed = await leader.request("POST", "/v1/groups", json={"sessionId": sid, "name": "team"})
    assert formed.status_code == 201
