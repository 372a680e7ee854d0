"""Interop with the standard's reference SDK, acps-sdk 2.1.0, in both directions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
from acps_sdk.aip.aip_base_model import (
    Product,
    TaskCommand,
    TaskResult,
    TaskState,
    TextDataItem,
)
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.aip_rpc_server import CommandHandlers, TaskManager, add_aip_rpc_router
from fastapi import FastAPI

from agenthub import AgentKey, HubClient, Leader
from agenthub.directory import PeerDirectory
from agenthub.signing import CallTokenAuth
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent
from tests.support.live import LiveServer


async def test_acps_rpc_client_drives_a_kit_partner(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """An acps-sdk leader records nothing at the hub: the partner's records alone leave the
    hub's task where the partner is, to the end."""
    leader = await make_live_agent("acps-leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])

    client = AipRpcClient(partner.public_url or "", leader.agent_id)
    await client.http_client.aclose()
    client.http_client = httpx.AsyncClient(
        auth=CallTokenAuth(leader.key, caller_id=leader.agent_id, callee_id=partner.agent_id)
    )
    try:
        started = await client.start_task(session.id, "hello from acps", task_id="t-acps")
        assert isinstance(started, TaskResult)
        assert started.status.state == TaskState.AwaitingCompletion
        assert started.products and started.products[0].dataItems[0].text == "hello from acps"
        got = await client.get_task("t-acps", session.id)
        assert [s.state for s in got.statusHistory or []] == [
            TaskState.Accepted,
            TaskState.Working,
            TaskState.AwaitingCompletion,
        ]
        done = await client.complete_task("t-acps", session.id)
        assert done.status.state == TaskState.Completed
    finally:
        await client.close()
    assert await partner.recorder.flush(5)  # the partner's records trail its answers
    assert not partner.recorder.failures
    task = (await leader.hub.request("GET", "/v1/tasks/t-acps")).json()
    assert (task["leaderId"], task["partnerId"]) == (leader.agent_id, partner.agent_id)
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert task["products"][0]["dataItems"][0]["text"] == "hello from acps"
    assert await live_hub.answered(201) >= 4  # the records were counted
    assert await live_hub.answered(409) == 0


def _acps_partner() -> FastAPI:
    """An acps-sdk partner built as its README shows: answers a start with its result."""

    async def on_start(command: TaskCommand, task: TaskResult | None) -> TaskResult:
        created = TaskManager.create_task(command)
        TaskManager.update_task_status(created.taskId, TaskState.Working)
        text = command.dataItems[0].text if command.dataItems else ""  # type: ignore[union-attr]
        TaskManager.set_products(
            created.taskId,
            [Product(id="answer", dataItems=[TextDataItem(text=f"acps says: {text}")])],
        )
        return TaskManager.update_task_status(created.taskId, TaskState.AwaitingCompletion)

    app = FastAPI()
    add_aip_rpc_router(app, "/aip", CommandHandlers(on_start=on_start))
    return app


async def test_kit_leader_drives_an_acps_partner(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """An acps-sdk partner records nothing at the hub: the kit leader records its answers for
    it (unverified), so the hub's task goes all the way, as the partner says."""
    leader_agent = await make_live_agent("kit-leader")
    server = await LiveServer(_acps_partner(), lifespan="off").start()
    acps_url = f"{server.url}/aip"
    acps_key = AgentKey.generate()
    async with HubClient(live_hub.url, key=acps_key) as acps_hub:
        card = await acps_hub.register(
            {"name": "acps-partner", "endpointUrl": acps_url}, registration_token=REGISTRATION_TOKEN
        )
    try:
        # acps-sdk servers cannot sign their answers: checking them waits for mutual TLS
        leader = Leader(
            leader_agent.hub,
            directory=PeerDirectory(leader_agent.hub),
            recorder=leader_agent.recorder,
            verify_answers=False,
        )
        session = await leader.open_session([card.id])

        def command(name: str, **extra: Any) -> Any:
            return leader.command(name, session_id=session.id, task_id="t-kit", **extra)

        result = await leader.send(card.id, command("start", text="hi", partner_id=card.id))
        assert result["status"]["state"] == "awaiting-completion"
        assert result["products"][0]["dataItems"][0]["text"] == "acps says: hi"
        got = await leader.send(card.id, command("get"))
        assert got["taskId"] == "t-kit"
        done = await leader.send(card.id, command("complete"))
        assert done["status"]["state"] == "completed"
        assert datetime.fromisoformat(done["status"]["stateChangedAt"]) <= datetime.now(UTC)
        await leader.aclose()
        assert leader.http.is_closed
    finally:
        await server.stop()
    assert await leader_agent.recorder.flush(10)
    assert not leader_agent.recorder.failures
    task = (await leader_agent.hub.request("GET", "/v1/tasks/t-kit")).json()
    assert (task["leaderId"], task["partnerId"], task["state"]) == (
        leader_agent.agent_id,
        card.id,
        "completed",
    )
    assert [s["state"] for s in task["statusHistory"]][-2:] == ["awaiting-completion", "completed"]
    assert task["products"][0]["dataItems"][0]["text"] == "acps says: hi"
    history = (await leader_agent.hub.request("GET", f"/v1/sessions/{session.id}/messages")).json()
    relayed = [m for m in history["items"] if m.get("relayedBy")]
    assert relayed and all(
        m["relayedBy"] == leader_agent.agent_id and m["verified"] is False for m in relayed
    )
    assert all(m["senderId"] == card.id for m in relayed)  # not acps-sdk's "server"
    assert await live_hub.answered(409) == 0
