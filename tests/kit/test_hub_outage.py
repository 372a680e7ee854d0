"""The hub is off the call path: while it is down, calls go on and no record is lost."""

from __future__ import annotations

from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent


async def test_records_reach_the_hub_after_it_comes_back(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    # a first task: each side has looked the other up (keys cached) and holds a hub token
    await leader.leader.start(partner.agent_id, session_id=session.id, text="one", task_id="t1")

    await live_hub.server.stop()
    result = await leader.leader.start(
        partner.agent_id, session_id=session.id, text="two", task_id="t2"
    )
    assert result["status"]["state"] == "awaiting-completion"  # the call did not need the hub
    assert not await leader.recorder.flush(0.1)  # the start is still waiting for the hub

    await live_hub.server.restart()
    assert await leader.recorder.flush(30) and await partner.recorder.flush(30)
    assert not leader.recorder.failures and not partner.recorder.failures
    response = await leader.hub.request("GET", "/v1/tasks/t2")
    task = response.json()
    assert task["state"] == "awaiting-completion"
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
    ]
    history = await leader.hub.request(
        "GET", f"/v1/sessions/{session.id}/messages", params={"limit": 500}
    )
    t2 = [m for m in history.json()["items"] if m.get("taskId") == "t2"]
    t2.sort(key=lambda m: m["sentAt"])  # the two recorders' records arrive in either order
    assert [m["type"] for m in t2] == ["task-command"] + ["task-result"] * 3
