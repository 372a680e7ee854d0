"""GB/Z 185.6 Table 3 (Message) on a session: every field the table names is kept as sent."""

from __future__ import annotations

from typing import Any

from agenthub import HubClient
from app.core.models import StoredMessage
from app.models.types import utcnow
from tests.api.test_sessions import count, open_session
from tests.api.test_tasks import Pair, pair
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat, now, result, text
from tests.support.parts import parts


async def history(agent: HubClient, session_id: str) -> list[dict[str, Any]]:
    response = await agent.request("GET", f"/v1/sessions/{session_id}/messages")
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


async def test_a_message_keeps_every_table_3_field(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    chunks = [
        chat(
            partner.agent_id or "",
            words,
            role="partner",
            artifact="result",
            final=index == 1,
            chunkIndex=index,
            lastChunk=index == 1,
        )
        for index, words in enumerate(("first half, ", "second half"))
    ]
    talk = chat(leader.agent_id or "", "how is it going?", artifact="communication")
    for agent, body in ((partner, chunks[0]), (leader, talk), (partner, chunks[1])):
        response = await agent.request("POST", path, json=body)
        assert response.status_code == 201, response.text
    stored = await history(leader, session["id"])
    assert [m["id"] for m in stored] == [chunks[0]["id"], talk["id"], chunks[1]["id"]]
    for sent, kept in zip((chunks[0], talk, chunks[1]), stored, strict=True):
        assert kept["sessionId"] == session["id"]  # Table 3: required, filled from the path
        for field in ("senderRole", "senderId", "id", "dataItems", "artifact"):
            assert kept[field] == sent[field], field
        for field in ("final", "chunkIndex", "lastChunk"):
            assert kept.get(field) == sent.get(field), field
    assert await history(partner, session["id"]) == stored


async def test_table_3_fields_of_the_wrong_kind_are_refused(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    sender = leader.agent_id or ""
    for extra in (
        {"artifact": "gossip"},
        {"final": "yes"},
        {"chunkIndex": -1},
        {"lastChunk": 1},
        {"senderRole": "observer"},
        {"dataItems": [{"type": "text"}]},
        {"dataItems": []},  # Table 1 #4: message and data are mandatory elements
        {"dataItems": None},
    ):
        problem(await leader.request("POST", path, json=chat(sender, "x", **extra)), 422)
    no_data = chat(sender, "x")
    del no_data["dataItems"]
    problem(await leader.request("POST", path, json=no_data), 422)
    assert await count(hub, StoredMessage) == 0


async def test_an_agent_leads_one_task_and_serves_another(make_agent: MakeAgent) -> None:
    """GB/Z §6.1: an agent may be the requester in one task and the service agent in another."""
    alice, bob = await make_agent("alice"), await make_agent("bob")
    mine = Pair(alice, bob, (await open_session(alice, bob))["id"])
    theirs = Pair(bob, alice, (await open_session(bob, alice))["id"])
    for p in (mine, theirs):
        response = await p.lead("start", "job", partnerId=p.pid, dataItems=text("do it"))
        assert response.status_code == 201, response.text
        assert (await p.report("job", "accepted")).status_code == 201
    # the roles are the task's, not the agent's: alice may not report on her own task
    problem(
        await mine.leader.request("POST", mine.path, json=result(mine.lid, "job", "working")), 409
    )
    for p in (mine, theirs):
        tasks = await p.leader.request("GET", "/v1/tasks", params={"sessionId": p.session_id})
        [task] = tasks.json()["items"]
        assert (task["leaderId"], task["partnerId"], task["state"]) == (p.lid, p.pid, "accepted")


async def test_a_plain_message_stored_before_data_was_required_is_still_read(
    make_agent: MakeAgent, hub: Any
) -> None:
    """The hub refuses a plain message without data since GB/Z Table 3 became a rule, but a
    session's history from before it (such a message stored) is read as it is, by every
    route that lists messages."""
    p = await pair(make_agent)
    old = chat(p.lid, "unused", sessionId=p.session_id, receivedAt=now())
    del old["dataItems"]
    async with parts(hub).session_factory() as db:
        db.add(
            StoredMessage(
                message_id=old["id"],
                sender_id=p.lid,
                session_id=p.session_id,
                type="message",
                body=old,
                received_at=utcnow(),
            )
        )
        await db.commit()
    listed = await p.partner.request("GET", p.path)
    assert listed.status_code == 200, listed.text
    assert [m["id"] for m in listed.json()["items"]] == [old["id"]]
    context = await p.partner.request("GET", f"/v1/sessions/{p.session_id}/context")
    assert context.status_code == 200, context.text
    assert [m["id"] for m in context.json()["messages"]["items"]] == [old["id"]]
