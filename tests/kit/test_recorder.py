"""The recorder keeps the hub off the call path, up to a bounded backlog per session."""

from __future__ import annotations

import asyncio

from agenthub import AgentKey, HubClient
from agenthub.lanes import Lanes
from agenthub.recorder import HubRecorder
from tests.support.kit import LiveHub, MakeLiveAgent
from tests.support.live import free_port
from tests.support.messages import chat


async def test_callers_wait_only_once_a_sessions_backlog_is_full() -> None:
    unreachable = HubClient(
        f"http://127.0.0.1:{free_port()}", key=AgentKey.generate(), agent_id="agt-rec"
    )
    recorder = HubRecorder(unreachable, retry_deadline_seconds=30, max_backlog=3)
    try:
        for i in range(2):
            recorder.record("full", chat("agt-rec", f"m{i}"))
            await asyncio.wait_for(recorder.admit("full", 10), 60)  # under the bound: at once
        recorder.record("full", chat("agt-rec", "m2"))
        recorder.record("other", chat("agt-rec", "o0"))
        waiting = asyncio.create_task(recorder.admit("full", 10))
        await asyncio.sleep(0.3)
        assert not waiting.done(), "a full backlog let the caller through"
        await asyncio.wait_for(recorder.admit("other", 10), 60)  # other sessions are not held
        waiting.cancel()
        assert recorder.recorded == 0
    finally:
        await recorder.aclose(timeout=0.1)
        await unreachable.aclose()


async def test_a_backlog_goes_to_the_hub_in_batches(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    leader = await make_live_agent("leader")
    other = await make_live_agent("other")
    session = await leader.leader.open_session([other.agent_id])
    sent = [chat(leader.agent_id, f"m{i}") for i in range(120)]
    for message in sent:  # queued at once: they go in batches of up to 50
        leader.recorder.record(session.id, message)
    assert await leader.recorder.flush(20)
    assert not leader.recorder.failures and leader.recorder.recorded == 120
    history = await leader.hub.request(
        "GET", f"/v1/sessions/{session.id}/messages", params={"limit": 500}
    )
    assert [m["id"] for m in history.json()["items"]] == [m["id"] for m in sent]
    batches = await live_hub.answered(200, "/v1/sessions/messages:batch")
    assert 3 <= batches <= 5, batches


async def test_a_waiting_caller_goes_on_at_the_low_water_mark_not_at_an_empty_queue() -> None:
    unreachable = HubClient(
        f"http://127.0.0.1:{free_port()}", key=AgentKey.generate(), agent_id="agt-low"
    )
    # relayed answers of one task go one a request, in its one lane: each is given up at
    # the retry deadline, in turn
    recorder = HubRecorder(unreachable, retry_deadline_seconds=0.2, max_backlog=8)

    async def admitted() -> int:
        await recorder.admit("s", 30)
        return recorder._backlog("s")  # as the caller goes on: nothing awaited in between

    try:
        for _ in range(8):
            answer = b'{"jsonrpc": "2.0", "id": "1", "result": {}}'
            recorder.relay("s", "t", partner_id="agt-p", answer=answer, signature=None, nonce=None)
        assert await asyncio.wait_for(admitted(), 30) == 4  # half of the bound, not empty
    finally:
        await recorder.aclose(timeout=0.1)
        await unreachable.aclose()


async def test_records_put_apart_go_in_one_request_and_a_flush_does_not_wait_for_more(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    leader = await make_live_agent("leader")
    other = await make_live_agent("other")
    session = await leader.leader.open_session([other.agent_id])
    await leader.recorder.flush(10)
    # a linger far longer than the test: only the batch filling up, or a flush, ends it
    recorder = HubRecorder(leader.hub, linger_seconds=600)
    try:
        before = await _record_requests(live_hub)
        sent = [chat(leader.agent_id, f"m{i}") for i in range(3)]
        for message in sent:  # each put after the lane's worker started lingering
            recorder.record(session.id, message)
            await asyncio.sleep(0)
        assert await asyncio.wait_for(recorder.flush(20), 30)
        assert recorder.recorded == 3 and not recorder.failures
        assert await _record_requests(live_hub) - before == 1
        history = await leader.hub.request("GET", f"/v1/sessions/{session.id}/messages")
        assert [m["id"] for m in history.json()["items"]] == [m["id"] for m in sent]
    finally:
        await recorder.aclose(timeout=5)


async def _record_requests(hub: LiveHub) -> int:
    """Requests the hub answered with messages recorded: one at a time, or a batch."""
    one = await hub.answered(201, "/v1/sessions/{sessionId}/messages")
    return one + await hub.answered(200, "/v1/sessions/messages:batch")


async def test_a_lingering_lane_sends_once_its_batch_is_full() -> None:
    sent: list[list[int]] = []

    async def send(key: str, items: list[int]) -> None:
        sent.append(items)

    lanes: Lanes[str, int] = Lanes(send, take=lambda lane: list(lane), linger=600, fill=3)
    try:
        for item in range(3):
            lanes.put("k", item)
            await asyncio.sleep(0)
        for _ in range(100):  # a few turns of the loop, no clock
            if sent:
                break
            await asyncio.sleep(0)
        assert sent == [[0, 1, 2]]
        lanes.put("k", 3)  # one short of full: it waits, the linger is long
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent == [[0, 1, 2]] and lanes.backlog() == 1
    finally:
        await lanes.aclose()


async def test_a_bridge_sessions_first_records_open_it(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """``open_bridge``: the session's first batch names its bridge (one record too), and
    the hub opens it with them; the sessions' batches waiting together go in one request;
    a bridge the hub refuses gives its records up, saying why."""
    agent = await make_live_agent("bridge")
    me = agent.agent_id
    route = "/v1/sessions/messages:batch"
    batches = await live_hub.answered(200, route)
    agent.recorder.open_bridge("a2a-ctx-1", {"protocol": "a2a", "contextId": "ctx-1"})
    agent.recorder.record("a2a-ctx-1", chat(me, "first"))
    assert await agent.recorder.flush(20)
    assert not agent.recorder.failures and agent.recorder.recorded == 1
    session = (await agent.hub.request("GET", "/v1/sessions/a2a-ctx-1")).json()
    assert session["bridge"]["contextId"] == "ctx-1"
    assert [r["agentId"] for r in session["receivers"]] == [me]
    assert await live_hub.answered(200, route) == batches + 1
    for n in range(2, 6):  # queued at once: one request for them all
        agent.recorder.open_bridge(f"a2a-ctx-{n}", {"protocol": "a2a", "contextId": f"ctx-{n}"})
        agent.recorder.record(f"a2a-ctx-{n}", chat(me, f"first of {n}"))
    agent.recorder.record("a2a-ctx-1", chat(me, "second"))  # opened: no bridge any more
    assert await agent.recorder.flush(20)
    assert not agent.recorder.failures and agent.recorder.recorded == 6
    assert await live_hub.answered(200, route) <= batches + 3
    for n in range(1, 6):
        history = await agent.hub.request("GET", f"/v1/sessions/a2a-ctx-{n}/messages")
        assert len(history.json()["items"]) == (2 if n == 1 else 1)
    nobody = {"protocol": "a2a", "contextId": "ctx-9", "callerId": "1.2.156.3088.1.AGH.NOBODY"}
    agent.recorder.open_bridge("a2a-ctx-9", nobody)
    agent.recorder.record("a2a-ctx-9", chat(me, "lost"))
    assert await agent.recorder.flush(20)
    (failure,) = agent.recorder.failures
    assert failure.status == 422 and "unregistered-agent" in failure.detail
    missing = await agent.hub.request("GET", "/v1/sessions/a2a-ctx-9")
    assert missing.status_code == 404
