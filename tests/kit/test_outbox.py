"""The recorder's durable outbox: records an agent had not sent when it stopped reach the
hub once it is back, and only once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthub import Agent, AgentKey, HubClient
from agenthub.outbox import Outbox
from agenthub.recorder import HubRecorder
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import LiveHub, MakeLiveAgent
from tests.support.live import free_port
from tests.support.messages import chat

CARD = {"name": "writer", "description": "records, is killed, comes back"}


async def history(agent: Agent, session_id: str) -> list[str]:
    page = await agent.hub.request("GET", f"/v1/sessions/{session_id}/messages")
    assert page.status_code == 200, page.text
    return [m["id"] for m in page.json()["items"]]


async def test_records_a_killed_agent_had_not_sent_reach_the_hub_when_it_joins_again(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    other = await make_live_agent("other")
    files: dict[str, Any] = {"state": tmp_path / "writer.json", "outbox": tmp_path / "out.db"}
    writer = Agent(live_hub.url, **files)
    await writer.join(CARD, registration_token=REGISTRATION_TOKEN)
    session = await writer.leader.open_session([other.agent_id])
    sent = [chat(writer.agent_id, f"before the kill {i}") for i in range(3)]
    for message in sent:
        writer.recorder.record(session.id, message)
    # killed before its lanes sent anything: nothing flushed, nothing closed in order
    await writer.recorder._lanes.aclose()
    await writer.hub.aclose()
    await writer.http.aclose()
    assert await history(other, session.id) == []

    again = Agent(live_hub.url, **files)  # the same identity and outbox, a new process
    try:
        await again.join(CARD)
        assert again.agent_id == writer.agent_id
        assert await again.recorder.flush(10)
        assert again.recorder.recorded == 3 and not again.recorder.failures
        assert await history(other, session.id) == [m["id"] for m in sent]
        assert again.recorder.outbox is not None and again.recorder.outbox.pending() == []
    finally:
        await again.aclose()


async def test_a_record_given_up_while_the_hub_was_away_stays_for_the_next_run(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    leader = await make_live_agent("leader")
    other = await make_live_agent("other")
    session = await leader.leader.open_session([other.agent_id])
    path = tmp_path / "out.db"
    away = HubClient(f"http://127.0.0.1:{free_port()}", key=AgentKey.generate(), agent_id="x")
    kept, refused = chat(leader.agent_id, "kept"), chat(leader.agent_id, "refused")
    first = HubRecorder(away, retry_deadline_seconds=0.3, outbox=path)
    try:
        first.record(session.id, kept)
        assert await first.flush(10)
        assert [f.message["id"] for f in first.failures] == [kept["id"]]  # given up: away
    finally:
        await first.aclose(timeout=1)
        await away.aclose()
    assert [p.body["id"] for p in Outbox(path).pending()] == [kept["id"]]

    second = HubRecorder(leader.hub, outbox=path)
    try:
        second.record("no-such-session", refused)  # refused for good (404): not kept
        assert await second.flush(10)
        assert second.recorded == 1
        assert [f.message["id"] for f in second.failures] == [refused["id"]]
        assert Outbox(path).pending() == []
    finally:
        await second.aclose(timeout=1)
    assert await history(leader, session.id) == [kept["id"]]
