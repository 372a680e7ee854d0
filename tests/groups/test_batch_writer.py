"""Plain group messages go through the batch writer: concurrent posts share transactions,
yet each gets its own seq, its own answer and exactly the refusal the one-by-one path gives."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlmodel import col

from app.core.models import StoredMessage
from tests.support.groups import count, team
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat
from tests.support.parts import parts


async def test_concurrent_posts_share_batches_and_each_gets_its_own_seq(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader = await make_agent("leader")
    members = [await make_agent(f"m{i}") for i in range(5)]
    group = await team(leader, *members)
    gid = group["id"]
    writer = parts(hub).ingest
    batches_before, written_before = writer.batches, writer.written

    async def send(member: Any, n: int) -> httpx.Response:
        body = chat(str(member.agent_id), f"message {n}", role="partner")
        return await member.request("POST", f"/v1/groups/{gid}/messages", json=body)

    answers = await asyncio.gather(*(send(m, n) for n in range(20) for m in members))

    assert [a.status_code for a in answers] == [201] * 100
    seqs = sorted(a.json()["seq"] for a in answers)
    assert seqs == list(range(group["lastSeq"] + 6, group["lastSeq"] + 106))  # after 5 accepts
    assert writer.written - written_before == 100
    assert writer.batches - batches_before < 100  # some posts shared a transaction
    stored = await count(hub, StoredMessage, col(StoredMessage.group_id) == gid)
    assert stored == 100
    history = await leader.request("GET", f"/v1/groups/{gid}/messages", params={"limit": 200})
    by_id = {m["id"]: m for m in history.json()["items"]}
    assert all(by_id[a.json()["id"]] == a.json() for a in answers)


async def test_refusals_in_a_shared_batch_are_the_one_by_one_refusals(
    make_agent: MakeAgent, hub: Any, client: httpx.AsyncClient
) -> None:
    leader = await make_agent("leader")
    ok, muted, removed, gone = [await make_agent(n) for n in ("ok", "muted", "removed", "gone")]
    group = await team(leader, ok, muted, removed, gone)
    gid = group["id"]
    url = f"/v1/groups/{gid}/messages"
    earlier = chat(str(ok.agent_id), "stored before", role="partner")
    first = await ok.request("POST", url, json=earlier)
    assert first.status_code == 201
    silenced = await leader.request("POST", f"/v1/groups/{gid}/members/{muted.agent_id}/mute")
    assert silenced.status_code == 200, silenced.text
    dropped = await leader.request("DELETE", f"/v1/groups/{gid}/members/{removed.agent_id}")
    assert dropped.status_code == 200, dropped.text
    gone_token = await gone.access_token()
    await gone.deregister()
    before = await count(hub, StoredMessage)

    async def as_gone() -> httpx.Response:
        return await client.post(
            f"{gone.base_url}{url}",
            json=chat(str(gone.agent_id), "after leaving the hub", role="partner"),
            headers={"Authorization": f"Bearer {gone_token}"},
        )

    answers = await asyncio.gather(
        *(
            ok.request("POST", url, json=chat(str(ok.agent_id), f"new {i}", role="partner"))
            for i in range(5)
        ),
        ok.request("POST", url, json=earlier),
        muted.request("POST", url, json=chat(str(muted.agent_id), "muted", role="partner")),
        removed.request("POST", url, json=chat(str(removed.agent_id), "gone", role="partner")),
        as_gone(),
    )

    assert [a.status_code for a in answers[:5]] == [201] * 5
    replay = answers[5]
    assert replay.status_code == 200 and replay.json() == first.json()
    problem(answers[6], 403)  # muted
    problem(answers[7], 404)  # removed: the group is no longer its to see
    problem(answers[8], 401)
    assert await count(hub, StoredMessage) == before + 5
