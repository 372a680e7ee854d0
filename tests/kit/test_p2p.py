"""Point-to-point, end to end: a live hub, a leader and a partner on loopback ports."""

from __future__ import annotations

from typing import Any

import httpx

from agenthub import Agent, Leader
from agenthub.directory import PeerDirectory
from tests.support import LOOPBACK
from tests.support.kit import (
    AskHandler,
    EchoHandler,
    LiveHub,
    MakeLiveAgent,
    hub_task,
    settled,
)


async def history(agent: Agent, session_id: str) -> list[dict[str, Any]]:
    response = await agent.hub.request(
        "GET", f"/v1/sessions/{session_id}/messages", params={"limit": 500}
    )
    return list(response.json()["items"])


async def test_rpc_lifecycle_is_recorded_at_the_hub(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id], title="echo test")
    result = await leader.leader.start(
        partner.agent_id, session_id=session.id, text="hello", task_id="t-rpc"
    )
    assert result["status"]["state"] == "awaiting-completion"
    assert result["products"][0]["dataItems"][0]["text"] == "hello"
    assert result["senderId"] == partner.agent_id
    done = await leader.leader.complete(partner.agent_id, session_id=session.id, task_id="t-rpc")
    assert done["status"]["state"] == "completed"
    await settled(leader, partner)
    task = await hub_task(leader, "t-rpc")
    assert task["state"] == "completed"
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert task["products"][0]["id"] == "echo"
    # the two sides' records reach the hub in either order; sent, they are in this one
    sent = sorted(await history(leader, session.id), key=lambda m: m["sentAt"])
    kinds = [(m["senderId"] == leader.agent_id, m["type"]) for m in sent]
    assert kinds == [
        (True, "task-command"),
        (False, "task-result"),
        (False, "task-result"),
        (False, "task-result"),
        (True, "task-command"),
        (False, "task-result"),  # the partner's answer to complete: the same move
    ]
    assert not leader.recorder.failures and not partner.recorder.failures


async def test_rpc_reject_and_get(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    result = await leader.leader.start(
        partner.agent_id, session_id=session.id, text="refuse", task_id="t-no"
    )
    assert result["status"]["state"] == "rejected"
    snapshot = await leader.leader.get(partner.agent_id, session_id=session.id, task_id="t-no")
    assert [s["state"] for s in snapshot["statusHistory"]] == ["rejected"]
    await settled(leader, partner)
    assert (await hub_task(leader, "t-no"))["state"] == "rejected"


async def test_a_continue_both_sides_record_is_one_move_at_the_hub(
    make_live_agent: MakeLiveAgent,
) -> None:
    """The leader records its ``continue`` (the command moves the task to working) and the
    partner records its answer, the same move: the hub holds the one move the partner
    holds, as the partner holds it."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    where = {"session_id": session.id, "task_id": "t-again"}
    await leader.leader.start(partner.agent_id, text="once", **where)
    again = await leader.leader.continue_task(partner.agent_id, text="twice", **where)
    assert again.state.value == "awaiting-completion"
    await leader.leader.complete(partner.agent_id, **where)
    snapshot = await leader.leader.get(partner.agent_id, **where)
    await settled(leader, partner)
    task = await hub_task(leader, "t-again")
    assert [s["state"] for s in snapshot["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "working",
        "awaiting-completion",
        "completed",
    ]
    states = [s["state"] for s in task["statusHistory"]]
    assert states == [s["state"] for s in snapshot["statusHistory"]]
    assert task["statusHistory"][:-1] == snapshot["statusHistory"][:-1]  # the partner's own
    assert not leader.recorder.failures and not partner.recorder.failures


async def test_stream_lifecycle_and_resume(make_live_agent: MakeLiveAgent) -> None:
    """Streams read up to the leader's turn (the kit's default), then followed to the
    task's end (AIP 6.2: the partner keeps a stream open until then)."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("asker", AskHandler())
    session = await leader.leader.open_session([partner.agent_id])
    first = [
        e
        async for e in leader.leader.start_streaming(
            partner.agent_id, session_id=session.id, text="go", task_id="t-s"
        )
    ]
    states = [e["eventData"]["status"]["state"] for e in first]
    assert states == ["accepted", "working", "awaiting-input"]
    command = leader.leader.command(
        "continue", session_id=session.id, task_id="t-s", text="forty-two"
    )
    second = [e async for e in leader.leader.stream(partner.agent_id, command)]
    seqs = [e["eventSeq"] for e in first + second]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    types = [e["eventData"]["type"] for e in second]
    assert types == [
        "task-result",
        "task-status-update",
        "task-status-update",
        "task-status-update",
        "product-chunk",
        "product-chunk",
        "task-result",
    ]
    last = second[-1]["eventData"]
    assert last["status"]["state"] == "awaiting-completion"
    assert last["status"]["dataItems"][0]["text"] == "told: forty-two"
    assert [d["text"] for d in last["products"][0]["dataItems"]] == ["a", "b"]
    await leader.leader.complete(partner.agent_id, session_id=session.id, task_id="t-s")
    # resume after a dropped connection: everything after eventSeq 2, nothing before, and
    # the task's end, after which the partner closes the stream
    resumed = [
        e
        async for e in leader.leader.resume_stream(
            partner.agent_id, session_id=session.id, task_id="t-s", last_event_seq=2, follow=True
        )
    ]
    assert [e["eventSeq"] for e in resumed][:-1] == [s for s in seqs if s > 2]
    assert resumed[-1]["eventData"]["status"]["state"] == "completed"
    await settled(leader, partner)
    task = await hub_task(leader, "t-s")
    assert task["state"] == "completed"
    assert [d["text"] for d in task["products"][0]["dataItems"]] == ["a", "b"]


async def test_notification_lifecycle(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    ack = await leader.leader.start_notified(
        partner.agent_id,
        session_id=session.id,
        notify_url=leader.notifications_url,
        text="ping",
        task_id="t-n",
    )
    assert ack["status"]["state"] in ("accepted", "working", "awaiting-completion")
    expected = leader.inbox.expectation("t-n", session_id=session.id)
    assert expected is not None
    pushed = await leader.inbox.wait(
        "t-n", lambda e: e["status"]["state"] == "awaiting-completion", timeout=60
    )
    assert pushed["products"][0]["dataItems"][0]["text"] == "ping"
    await leader.leader.complete(partner.agent_id, session_id=session.id, task_id="t-n")
    await leader.inbox.wait("t-n", lambda e: e["status"]["state"] == "completed", timeout=60)
    states = [e["status"]["state"] for e in leader.inbox.results_of("t-n")]
    assert states == ["accepted", "working", "awaiting-completion", "completed"]
    configs = await leader.leader.call(partner.agent_id, "notification/get", {"taskId": "t-n"})
    assert len(configs) == 1 and configs[0]["url"] == leader.notifications_url
    assert configs[0]["token"] == expected.token  # the leader's own
    deleted = await leader.leader.call(partner.agent_id, "notification/delete", {"taskId": "t-n"})
    assert deleted == {"success": True}
    assert await leader.leader.call(partner.agent_id, "notification/get", {"taskId": "t-n"}) == []


async def test_mounted_endpoint_in_a_fastapi_app(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    from fastapi import FastAPI

    from agenthub import AgentKey
    from tests.support.hub import REGISTRATION_TOKEN
    from tests.support.live import LiveServer, bound_socket

    sock = bound_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/agents/echo/"
    partner = Agent(  # mounted in an app of its own, served plain (TLS ends before it)
        live_hub.url,
        key=AgentKey.generate(),
        handler=EchoHandler(),
        public_url=url,
        plain_http=True,
    )
    await partner.register({"name": "mounted"}, registration_token=REGISTRATION_TOKEN)
    host = FastAPI()

    @host.get("/health")
    async def health() -> dict[str, str]:
        return {"ok": "yes"}

    host.mount("/agents/echo", partner.asgi)
    server = await LiveServer(host, sock=sock, lifespan="off").start()
    try:
        leader = await make_live_agent("leader", https=False)
        session = await leader.leader.open_session([partner.agent_id])
        result = await leader.leader.start(partner.agent_id, session_id=session.id, text="hi")
        assert result["status"]["state"] == "awaiting-completion"
    finally:
        await server.stop()
        await partner.aclose()


async def test_a_leader_closes_the_http_client_it_made_and_only_that(
    make_live_agent: MakeLiveAgent,
) -> None:
    agent = await make_live_agent("leader")
    own = Leader(agent.hub, directory=PeerDirectory(agent.hub), recorder=None)
    async with own:
        pass
    assert own.http.is_closed
    async with httpx.AsyncClient(timeout=LOOPBACK) as shared:
        borrowed = Leader(agent.hub, directory=PeerDirectory(agent.hub), recorder=None, http=shared)
        await borrowed.aclose()
        assert not shared.is_closed
