"""Interop with the standard's reference SDK, acps-sdk 2.1.0, in both directions."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from acps_sdk.aip.aip_base_model import (
    Product,
    TaskCommand,
    TaskResult,
    TaskState,
    TextDataItem,
)
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.aip_rpc_server import CommandHandlers, TaskManager, add_aip_rpc_router
from acps_sdk.aip.mtls_config import MTLSConfig
from fastapi import FastAPI

from agenthub import AgentKey, HubClient, Leader
from agenthub.directory import PeerDirectory
from agenthub.tls import AgentTls
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent
from tests.support.live import LiveServer, bound_socket


async def test_acps_rpc_client_drives_a_kit_partner(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """An acps-sdk leader as acps-sdk's docs show it: ``AipRpcClient`` with its own
    ``MTLSConfig`` (a certificate our hub issued), no call token. Its client certificate is
    its proof; it records nothing at the hub, and the partner's records alone leave the hub's
    task where the partner is, to the end."""
    leader = await make_live_agent("acps-leader", serve=False)
    partner = await make_live_agent("echo", EchoHandler(), https=True)
    session = await leader.leader.open_session([partner.agent_id])
    await leader.tls.ensure()
    leader.tls.write_files(tmp_path)  # {AIC}.crt, {AIC}.key, ca.crt
    mtls = MTLSConfig(str(tmp_path), leader.agent_id)

    client = AipRpcClient(
        partner.public_url or "", leader.agent_id, ssl_context=mtls.create_client_ssl_context()
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
        again = await client.continue_task("t-acps", session.id, "once more")
        assert again.status.state == TaskState.AwaitingCompletion
        done = await client.complete_task("t-acps", session.id)
        assert done.status.state == TaskState.Completed
        await client.start_task(session.id, "never mind", task_id="t-acps-2")
        canceled = await client.cancel_task("t-acps-2", session.id)
        assert canceled.status.state == TaskState.Canceled
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
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert task["products"][0]["dataItems"][0]["text"] == "once more"
    second = (await leader.hub.request("GET", "/v1/tasks/t-acps-2")).json()
    assert second["state"] == "canceled"
    assert await live_hub.answered(201) >= 4  # the records were counted
    assert await live_hub.answered(409) == 0


def _acps_partner(aic: str) -> FastAPI:
    """An acps-sdk partner built as its README shows: answers a start with its result,
    sent as itself (AIP 6.0: an answer's ``senderId`` is its partner's AIC, where
    acps-sdk's TaskManager leaves "server" for the partner to fill in)."""

    async def on_start(command: TaskCommand, task: TaskResult | None) -> TaskResult:
        created = TaskManager.create_task(command)
        created.senderId = aic
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
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """An acps-sdk partner served over mutual TLS records nothing at the hub: the kit leader,
    having authenticated it by its certificate, records its answers for it (unverified at the
    hub: they carry no signature it can check), so the hub's task goes all the way."""
    leader_agent = await make_live_agent("kit-leader")
    acps_key = AgentKey.generate()
    sock = bound_socket()
    acps_url = f"https://127.0.0.1:{sock.getsockname()[1]}/aip"
    async with HubClient(live_hub.url, key=acps_key) as acps_hub:
        card = await acps_hub.register(
            {"name": "acps-partner", "endpointUrl": acps_url}, registration_token=REGISTRATION_TOKEN
        )
        certificate = AgentTls(acps_hub)
        await certificate.ensure()
        certificate.write_files(tmp_path)
    # served as acps-sdk serves an rpc partner, with acps-sdk's own mTLS context
    mtls = MTLSConfig(str(tmp_path), card.id)
    context = mtls.create_server_ssl_context()
    server = await LiveServer(
        _acps_partner(card.id),
        sock=sock,
        lifespan="off",
        ssl_context_factory=lambda _config, _default: context,
    ).start()
    try:
        # the leader checks every answer: acps-sdk's carry no signature, so its certificate
        # (our CA's, naming the partner and holding its registered key) is the proof
        leader = Leader(
            leader_agent.hub,
            directory=PeerDirectory(leader_agent.hub),
            recorder=leader_agent.recorder,
            tls=leader_agent.tls,
        )
        assert leader.verify_answers
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
    assert all(m["senderId"] == card.id for m in relayed)
    assert await live_hub.answered(409) == 0
