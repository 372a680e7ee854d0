"""The operator's hub-wide event stream over real SSE connections to a live hub (uvicorn on
loopback): live events, resumption with Last-Event-ID, and reset."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agenthub import HubClient
from app.config import Settings
from app.main import create_app
from tests.support import LOOPBACK
from tests.support.groups import STREAM_SETTINGS, post, team
from tests.support.hub import OPERATOR_TOKEN, empty_tables, registered
from tests.support.live import LiveServer
from tests.support.parts import parts
from tests.support.waiting import eventually

WAIT_SECONDS = 60  # a hang bound, not a speed one
Event = tuple[str, str, Any]  # id, kind, data


class OperatorStream:
    """One open operator stream: its events, parsed, as they come."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._lines = response.aiter_lines()

    async def next(self, kind: str | None = None) -> Event:
        """The next event (of ``kind``, skipping others), within the time bound."""

        async def read() -> Event:
            fields: dict[str, str] = {}
            async for line in self._lines:
                if line.startswith(":"):
                    continue
                if line:
                    name, _, value = line.partition(": ")
                    fields[name] = value
                    continue
                if "event" in fields and (kind is None or fields["event"] == kind):
                    return fields.get("id", ""), fields["event"], json.loads(fields["data"])
                fields = {}
            raise AssertionError("the stream ended")

        return await asyncio.wait_for(read(), WAIT_SECONDS)


@contextlib.asynccontextmanager
async def operator_stream(
    url: str, last_event_id: str | None = None
) -> AsyncIterator[OperatorStream]:
    headers = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    async with (
        httpx.AsyncClient(timeout=WAIT_SECONDS) as http,
        http.stream("GET", f"{url}/v1/operator/events", headers=headers) as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        yield OperatorStream(response)


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[LiveServer]:
    server = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    try:
        yield server
        app: Any = server.app
        await eventually(
            lambda: parts(app).metrics.open_stream_count() == 0,
            "every stream the test opened has ended",
        )
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


@pytest.fixture
async def agents(live: LiveServer) -> AsyncIterator[tuple[HubClient, HubClient]]:
    leader, worker = await registered(live.url, "leader"), await registered(live.url, "worker")
    yield leader, worker
    await leader.aclose()
    await worker.aclose()


async def test_a_group_post_is_a_message_event(
    live: LiveServer, agents: tuple[HubClient, HubClient]
) -> None:
    leader, worker = agents
    async with operator_stream(live.url) as stream:
        group = await team(leader, worker)
        _, _, created = await stream.next("group")
        assert created["groupId"] == group["id"]
        assert created["conversationState"] == "discussion"
        member = await stream.next("member")
        assert member[2]["groupId"] == group["id"]
        stored = await post(worker, group["id"], "x" * 300)
        event_id, kind, data = await stream.next("message")
    assert kind == "message" and event_id.startswith(parts(live.app).operator_feed.boot + "-")
    assert data["groupId"] == group["id"] and data["seq"] == stored["seq"]
    assert data["id"] == stored["id"] and data["senderId"] == worker.agent_id
    assert data["type"] == "message" and data["sentAt"] and data["text"] == "x" * 200
    assert data["sessionId"] == group["sessionId"]


async def test_a_resumed_stream_gets_only_what_came_after(
    live: LiveServer, agents: tuple[HubClient, HubClient]
) -> None:
    leader, worker = agents
    group = await team(leader, worker)
    async with operator_stream(live.url) as stream:
        await post(worker, group["id"], "one")
        first_id, _, first = await stream.next("message")
    assert first["text"] == "one"
    await post(worker, group["id"], "two")
    await post(worker, group["id"], "three")
    async with operator_stream(live.url, last_event_id=first_id) as stream:
        events = [await stream.next(), await stream.next()]
        await post(worker, group["id"], "four")
        events.append(await stream.next())
    assert [(kind, data.get("text")) for _, kind, data in events] == [
        ("message", "two"),
        ("message", "three"),
        ("message", "four"),
    ]
    numbers = [int(event_id.rsplit("-", 1)[1]) for event_id, _, _ in events]
    assert numbers == sorted(numbers) and numbers[0] > int(first_id.rsplit("-", 1)[1])


@pytest.mark.parametrize("last_event_id", ["another-boot-3", "garbage", "12"])
async def test_an_id_it_cannot_resume_from_gets_a_reset_first(
    live: LiveServer, agents: tuple[HubClient, HubClient], last_event_id: str
) -> None:
    leader, worker = agents
    group = await team(leader, worker)
    async with operator_stream(live.url, last_event_id=last_event_id) as stream:
        reset_id, kind, data = await stream.next()
        assert (kind, data) == ("reset", {})
        await post(worker, group["id"], "after the reset")
        event_id, kind, data = await stream.next()
    assert kind == "message" and data["text"] == "after the reset"
    assert int(event_id.rsplit("-", 1)[1]) > int(reset_id.rsplit("-", 1)[1])


async def test_sessions_tasks_and_agents_are_told(
    live: LiveServer, agents: tuple[HubClient, HubClient]
) -> None:
    leader, worker = agents
    async with operator_stream(live.url) as stream:
        group = await team(leader, worker)
        _, _, opened = await stream.next("session")
        assert opened == {"sessionId": group["sessionId"], "state": "open"}
        task_id = await leader.groups.assign(group["id"], str(worker.agent_id), "weld it")
        _, _, task = await stream.next("task")
        assert (task["taskId"], task["state"], task["groupId"]) == (
            task_id,
            "submitted",
            group["id"],
        )
        await worker.groups.report(group["id"], task_id, "accepted")
        _, _, moved = await stream.next("task")
        assert (moved["taskId"], moved["state"]) == (task_id, "accepted")
        closed = await leader.request(
            "PATCH", f"/v1/sessions/{group['sessionId']}", json={"state": "closed"}
        )
        assert closed.status_code == 200
        _, _, state = await stream.next("session")
        assert state == {"sessionId": group["sessionId"], "state": "closed"}
        _, _, concluded = await stream.next("group")
        assert concluded == {"groupId": group["id"], "conversationState": "conclusion"}
        await worker.deregister()
        _, _, gone = await stream.next("agent")
        assert gone == {"agentId": worker.agent_id, "event": "deregistered"}


@pytest.mark.skipif(
    not os.environ.get("AGENTHUB_TEST_REDIS_URL"),
    reason="replicas share events through Redis (CI sets AGENTHUB_TEST_REDIS_URL)",
)
async def test_a_replica_streams_what_another_replica_wrote(
    settings: Settings, live: LiveServer, agents: tuple[HubClient, HubClient]
) -> None:
    leader, worker = agents  # they call the first replica
    other = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    try:
        group = await team(leader, worker)
        async with operator_stream(other.url) as stream:
            await post(worker, group["id"], "written on the first replica")
            event_id, _, data = await stream.next("message")
        assert data["text"] == "written on the first replica"
        other_app: Any = other.app
        assert event_id.startswith(parts(other_app).operator_feed.boot + "-")
    finally:
        await other.stop()


async def test_operator_streams_count_against_the_stream_limits(settings: Settings) -> None:
    capped = settings.model_copy(update={**STREAM_SETTINGS, "max_streams_per_agent": 1})
    server = await LiveServer(create_app(capped)).start()
    try:
        app: Any = server.app
        async with operator_stream(server.url) as stream:
            assert parts(app).metrics.open_stream_count() == 1
            assert parts(app).presence.held() == 1
            async with httpx.AsyncClient(timeout=LOOPBACK) as http:
                refused = await http.get(
                    f"{server.url}/v1/operator/events",
                    headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
                )
            assert refused.status_code == 429 and refused.headers["Retry-After"]
            await stream.response.aclose()
        await eventually(lambda: parts(app).presence.held() == 0, "every lease given back")
    finally:
        await server.stop()
        await empty_tables(settings.database_url)
