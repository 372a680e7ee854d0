"""The kit leader driving an a2a-sdk server agent (tests/support/a2a_peer.py, built as the
SDK's samples build one) through the same ``Leader`` methods as an AIP partner: send, stream,
get, cancel, resubscribe and push notifications, each recorded at the hub."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agenthub import Agent, AgentKey
from agenthub.errors import CardSignatureError
from tests.support import LOOPBACK
from tests.support.a2a_peer import serve_peer
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent, hub_task, settled

WAIT_SECONDS = 60.0  # a hang bound, not a speed one


async def register_peer(hub: LiveHub, url: str, versions: tuple[str, ...]) -> str:
    """The a2a-sdk agent in the registry, as its operator would put it: its A2A binding."""
    body = {
        "name": "a2a peer",
        "description": "an a2a-sdk agent",
        "publicJwk": AgentKey.generate().public_jwk,
        "protocols": [{"protocol": "a2a", "url": f"{url}/", "version": v} for v in versions],
    }
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        response = await http.post(
            f"{hub.url}/v1/agents",
            json=body,
            headers={"Authorization": f"Bearer {REGISTRATION_TOKEN}"},
        )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


@pytest.fixture(params=["1.0", "0.3"])
async def peer(request: pytest.FixtureRequest, live_hub: LiveHub) -> AsyncIterator[str]:
    """A registered a2a-sdk agent whose card offers one A2A version."""
    version = str(request.param)
    async with serve_peer(versions=(version,)) as url:
        yield await register_peer(live_hub, url, (version,))


async def leader_of(make_live_agent: MakeLiveAgent) -> Agent:
    return await make_live_agent("leader", https=False)


def states_of(task: dict[str, Any]) -> list[str]:
    return [s["state"] for s in task["statusHistory"]]


async def test_rpc_start_complete_is_recorded(make_live_agent: MakeLiveAgent, peer: str) -> None:
    agent = await leader_of(make_live_agent)
    leader = agent.leader
    session = await leader.open_session([peer], title="a2a")
    result = await leader.start(peer, session_id=session.id, text="hello", task_id="t-a2a")
    assert result["status"]["state"] == "awaiting-completion"
    assert result["taskId"] == "t-a2a" and result["senderId"] == peer
    assert result["products"][0]["dataItems"][0]["text"] == "hello"
    done = await leader.complete(peer, session_id=session.id, task_id="t-a2a")
    assert done["status"]["state"] == "completed"
    got = await leader.get(peer, session_id=session.id, task_id="t-a2a")
    assert got["status"]["state"] == "completed"
    await settled(agent)
    task = await hub_task(agent, "t-a2a")
    assert task["state"] == "completed"
    assert task["partnerId"] == peer and task["leaderId"] == agent.agent_id
    assert states_of(task) == ["accepted", "working", "awaiting-completion", "completed"]
    assert task["products"][0]["dataItems"][0]["text"] == "hello"
    assert not agent.recorder.failures


async def test_awaiting_input_then_continue(make_live_agent: MakeLiveAgent, peer: str) -> None:
    agent = await leader_of(make_live_agent)
    leader = agent.leader
    session = await leader.open_session([peer])
    asked = await leader.start(peer, session_id=session.id, text="ask me", task_id="t-ask")
    assert asked["status"]["state"] == "awaiting-input"
    assert asked["status"]["dataItems"][0]["text"] == "What is your answer?"
    answered = await leader.continue_task(peer, session_id=session.id, task_id="t-ask", text="42")
    assert answered["status"]["state"] == "awaiting-completion"
    assert answered["products"][0]["dataItems"][0]["text"] == "42"
    await leader.complete(peer, session_id=session.id, task_id="t-ask")
    await settled(agent)
    task = await hub_task(agent, "t-ask")
    assert states_of(task) == [
        "accepted",
        "working",
        "awaiting-input",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert not agent.recorder.failures


async def test_stream_yields_aip_events(make_live_agent: MakeLiveAgent, peer: str) -> None:
    agent = await leader_of(make_live_agent)
    leader = agent.leader
    session = await leader.open_session([peer])
    events = [
        e
        async for e in leader.start_streaming(peer, session_id=session.id, text="hi", task_id="t-s")
    ]
    seqs = [e["eventSeq"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    kinds = [e["eventData"]["type"] for e in events]
    assert "product-chunk" in kinds
    assert events[-1]["eventData"]["status"]["state"] == "awaiting-completion"
    await leader.complete(peer, session_id=session.id, task_id="t-s")
    await settled(agent)
    assert (await hub_task(agent, "t-s"))["state"] == "completed"


async def test_notified_start_cancel_and_resubscribe(
    make_live_agent: MakeLiveAgent, peer: str
) -> None:
    """A push-notified start answers at once; a resubscribed stream sees the cancel; the
    pushes reach the leader's inbox."""
    agent = await leader_of(make_live_agent)
    leader = agent.leader
    session = await leader.open_session([peer])
    first = await leader.start_notified(
        peer, session_id=session.id, notify_url=agent.notifications_url, text="slow", task_id="t-c"
    )
    assert first["status"]["state"] in ("accepted", "working")
    seen: list[dict[str, Any]] = []

    async def watch() -> None:
        async for event in leader.resume_stream(
            peer, session_id=session.id, task_id="t-c", last_event_seq=0, follow=True
        ):
            seen.append(event["eventData"])

    watching = asyncio.create_task(watch())
    await asyncio.sleep(0.3)
    canceled = await leader.cancel(peer, session_id=session.id, task_id="t-c")
    assert canceled["status"]["state"] == "canceled"
    await asyncio.wait_for(watching, WAIT_SECONDS)
    assert seen[-1]["status"]["state"] == "canceled"
    await settled(agent)
    task = await hub_task(agent, "t-c")
    assert task["state"] == "canceled"
    for _ in range(int(WAIT_SECONDS * 10)):
        pushed = agent.inbox.results_of("t-c", session_id=session.id)
        if any(p["status"]["state"] == "canceled" for p in pushed if p["type"] == "task-result"):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"no canceled push: {pushed}")
    assert all(p["senderId"] == peer for p in pushed)


async def test_pushes_without_the_token_are_refused(
    make_live_agent: MakeLiveAgent, peer: str
) -> None:
    agent = await leader_of(make_live_agent)
    session = await agent.leader.open_session([peer])
    await agent.leader.start_notified(
        peer, session_id=session.id, notify_url=agent.notifications_url, text="x", task_id="t-p"
    )
    url = f"{agent.notifications_url}/a2a"
    body = {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_FAILED"}}}
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        forged = await http.post(
            url,
            params={"session": session.id, "task": "t-p"},
            json=body,
            headers={"X-A2A-Notification-Token": "guess"},
        )
        unknown = await http.post(url, params={"session": session.id, "task": "nope"}, json=body)
    assert forged.status_code == 401
    assert unknown.status_code == 404
    pushed = agent.inbox.results_of("t-p", session_id=session.id)
    assert all(p["status"]["state"] != "failed" for p in pushed if p["type"] == "task-result")


async def test_an_agent_named_by_its_card_url_is_called_by_a2a(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """``use_a2a``: an agent whose registry entry says nothing of A2A (AIP at its endpoint,
    by default), called at the Agent Card URL given, and recorded all the same."""
    async with serve_peer() as url:
        peer = await register_peer(live_hub, url, ())
        agent = await leader_of(make_live_agent)
        card = await agent.directory.card(peer)
        assert [b.protocol for b in card.protocols] == []  # no endpoint, no binding
        agent.leader.use_a2a(peer, f"{url}/.well-known/agent-card.json")
        session = await agent.leader.open_session([peer])
        result = await agent.leader.start(
            peer, session_id=session.id, text="by card", task_id="t-u"
        )
        assert result["status"]["state"] == "awaiting-completion"
        await agent.leader.complete(peer, session_id=session.id, task_id="t-u")
        await settled(agent)
        assert (await hub_task(agent, "t-u"))["state"] == "completed"


async def test_a_start_timeout_bounds_the_wait_and_a_cancel_then_reaches_the_task(
    make_live_agent: MakeLiveAgent, peer: str
) -> None:
    """AIP's start ``timeout`` on the A2A path: the answer is the task as it is then (the
    agent works on for 30 s); its A2A id is known, so a cancel reaches it."""
    agent = await leader_of(make_live_agent)
    leader = agent.leader
    session = await leader.open_session([peer])
    started = await leader.start(
        peer, session_id=session.id, text="slow", task_id="t-slow", params={"timeout": 300}
    )
    assert started["status"]["state"] == "working"
    canceled = await leader.cancel(peer, session_id=session.id, task_id="t-slow")
    assert canceled["status"]["state"] == "canceled"
    await settled(agent)
    task = await hub_task(agent, "t-slow")
    assert task["state"] == "canceled"
    assert states_of(task) == ["accepted", "working", "canceled"]


async def test_a_leader_that_requires_signed_cards_calls_only_agents_the_hub_signed(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    agent = await leader_of(make_live_agent)
    agent.leader.require_signed_cards = True
    async with serve_peer() as url:  # an a2a-sdk agent serves its own card, unsigned
        peer = await register_peer(live_hub, url, ("1.0",))
        session = await agent.leader.open_session([peer])
        with pytest.raises(CardSignatureError):
            await agent.leader.start(peer, session_id=session.id, text="x", task_id="t-no")
    await settled(agent)
    gone = await agent.hub.request("GET", f"/v1/tasks/t-no?sessionId={session.id}")
    assert gone.status_code == 404  # refused before anything was recorded
    # a kit partner serves its card as the hub signed it
    partner = await make_live_agent("a2a-partner", EchoHandler(), https=False, a2a=True)
    agent.leader.use_a2a(partner.agent_id, f"{partner.public_url}.well-known/agent-card.json")
    session = await agent.leader.open_session([partner.agent_id])
    result = await agent.leader.start(
        partner.agent_id, session_id=session.id, text="signed", task_id="t-yes"
    )
    assert result["status"]["state"] == "awaiting-completion"


@pytest.mark.parametrize(("text", "end"), [("reject this", "rejected"), ("quit now", "failed")])
async def test_an_agents_end_is_recorded_as_it_says_or_failed(
    make_live_agent: MakeLiveAgent, peer: str, text: str, end: str
) -> None:
    """An A2A agent's REJECTED after SUBMITTED (as a stream shows it) is the partner's
    rejection of the task it accepted, recorded ``rejected``; its own CANCELED while working
    is no partner move there, so the hub's task ends failed, saying how."""
    agent = await leader_of(make_live_agent)
    session = await agent.leader.open_session([peer])
    events = [
        e["eventData"]
        async for e in agent.leader.start_streaming(
            peer, session_id=session.id, text=text, task_id="t-end", follow=True
        )
    ]
    assert events[0]["status"]["state"] == "accepted"
    result = events[-1]
    assert result["status"]["state"] == end
    said = [d["text"] for d in result["status"].get("dataItems", []) if d["type"] == "text"]
    assert any("ended the task as" in s for s in said) == (end == "failed")
    await settled(agent)
    task = await hub_task(agent, "t-end")
    assert task["state"] == end
    assert [s["state"] for s in task["statusHistory"]][-1] == end
    assert not agent.recorder.failures


async def test_a_push_that_is_no_event_of_the_task_is_refused(
    make_live_agent: MakeLiveAgent, peer: str
) -> None:
    """With the task's own token: a body that is no UTF-8, an event with no state, or one
    of another A2A task are 400, and the leader's calls still go to its own task."""
    agent = await leader_of(make_live_agent)
    session = await agent.leader.open_session([peer])
    await agent.leader.start_notified(
        peer, session_id=session.id, notify_url=agent.notifications_url, text="ask", task_id="t-x"
    )
    expected = agent.inbox.expectation("t-x", session_id=session.id)
    assert expected is not None and expected.token is not None
    url = f"{agent.notifications_url}/a2a"
    params = {"session": session.id, "task": "t-x"}
    headers = {"X-A2A-Notification-Token": expected.token}
    bodies = [
        b"\xff\xfe not utf-8",
        b'{"statusUpdate": {"status": {}}}',
        b'{"statusUpdate": {"taskId": "another", "status": {"state": "TASK_STATE_FAILED"}}}',
    ]
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        answers = [
            await http.post(url, params=params, content=body, headers=headers) for body in bodies
        ]
    assert [a.status_code for a in answers] == [400, 400, 400]
    canceled = await agent.leader.cancel(peer, session_id=session.id, task_id="t-x")
    assert canceled["status"]["state"] == "canceled"
