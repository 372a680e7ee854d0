"""Issue 17, clause by clause: a kit partner over mutual TLS, driven by acps-sdk 2.1.0's
``AipRpcClient`` (and its HTTP client, for what the client has no method for), every answer
validated by acps-sdk's own models. Clauses: ACPs AIP v02.02 (§4.4, §4.5, 5.1, 6.2, 6.3)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from acps_sdk.aip.aip_base_model import TaskResult, TaskState
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.aip_rpc_model import JSONRPCResponse, RpcResponse
from acps_sdk.aip.aip_stream_model import StreamResponse

from agenthub import Agent
from tests.support.acps import acps_client, acps_command, rpc_body
from tests.support.kit import AskHandler, EchoHandler, LiveHub, MakeLiveAgent

READ_SECONDS = 10.0


class Peers:
    def __init__(self, leader: Agent, partner: Agent, client: AipRpcClient, session_id: str):
        self.leader, self.partner, self.client, self.session_id = (
            leader,
            partner,
            client,
            session_id,
        )
        self.url = partner.public_url or ""

    def command(self, name: str, task_id: str, **kwargs: Any) -> dict[str, Any]:
        made = acps_command(
            self.leader.agent_id, name, task_id=task_id, session_id=self.session_id, **kwargs
        )
        return made.model_dump(exclude_none=True)

    async def post(self, body: Any) -> httpx.Response:
        """A raw request over acps-sdk's own mTLS client."""
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        return await self.client.http_client.post(self.url, content=content, headers=headers)

    async def rpc(self, command: dict[str, Any]) -> TaskResult:
        answer = RpcResponse.model_validate(
            (await self.post(rpc_body("rpc", {"command": command}))).json()
        )
        assert answer.error is None and answer.result is not None, answer.error
        return answer.result


async def peers(make_live_agent: MakeLiveAgent, tmp_path: Path, handler: Any) -> Peers:
    leader = await make_live_agent("acps-leader")
    partner = await make_live_agent("partner", handler)
    session = await leader.leader.open_session([partner.agent_id])
    client = await acps_client(leader, partner, tmp_path / "acps")
    return Peers(leader, partner, client, session.id)


@pytest.fixture
async def echo(make_live_agent: MakeLiveAgent, tmp_path: Path) -> AsyncIterator[Peers]:
    p = await peers(make_live_agent, tmp_path, EchoHandler())
    yield p
    await p.client.close()


@pytest.fixture
async def ask(make_live_agent: MakeLiveAgent, tmp_path: Path) -> AsyncIterator[Peers]:
    p = await peers(make_live_agent, tmp_path, AskHandler())
    yield p
    await p.client.close()


async def hub_state(p: Peers, task_id: str) -> str:
    assert await p.partner.recorder.flush(10)
    return str((await p.leader.hub.request("GET", f"/v1/tasks/{task_id}")).json()["state"])


# -- AIP §4.5: commands out of their state are ignored ------------------------------------


async def test_complete_on_completed_task_is_ignored(echo: Peers, live_hub: LiveHub) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-done")
    done = await echo.client.complete_task("t-done", echo.session_id)
    assert done.status.state == TaskState.Completed
    again = await echo.client.complete_task("t-done", echo.session_id)  # no RPC error
    more = await echo.client.continue_task("t-done", echo.session_id, "and?")
    assert again.status == done.status and more.status == done.status
    snapshot = await echo.client.get_task("t-done", echo.session_id)
    assert [c.command.value for c in snapshot.commandHistory or []] == [
        "start",
        "complete",
        "complete",
        "continue",
    ]
    assert await hub_state(echo, "t-done") == "completed"
    assert await live_hub.answered(409) == 0


async def test_cancel_on_ended_task_is_ignored(echo: Peers) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-end")
    await echo.client.complete_task("t-end", echo.session_id)
    canceled = await echo.client.cancel_task("t-end", echo.session_id)  # was -32002
    assert canceled.status.state == TaskState.Completed


# -- AIP §4.4: get's and start's params -----------------------------------------------------


async def test_get_returns_only_history_newer_than_its_params(echo: Peers) -> None:
    await echo.client.start_task(echo.session_id, "hi", task_id="t-get")
    full = await echo.client.get_task("t-get", echo.session_id)
    statuses, commands = full.statusHistory or [], full.commandHistory or []
    assert [s.state for s in statuses] == [
        TaskState.Accepted,
        TaskState.Working,
        TaskState.AwaitingCompletion,
    ]
    since = {"lastStateChangedAt": statuses[0].stateChangedAt, "lastCommandSentAt": None}
    newer = await echo.rpc(echo.command("get", "t-get", params=since))
    assert newer.statusHistory == statuses[1:] and newer.commandHistory == commands
    since = {"lastCommandSentAt": commands[-1].sentAt}
    assert (await echo.rpc(echo.command("get", "t-get", params=since))).commandHistory == []
    bad = await echo.post(
        rpc_body(
            "rpc",
            {"command": echo.command("get", "t-get", params={"lastStateChangedAt": "yesterday"})},
        )
    )
    assert JSONRPCResponse.model_validate(bad.json()).error.code == -32602  # type: ignore[union-attr]


async def test_start_timeout_cancels_a_task_left_awaiting_input(
    ask: Peers, live_hub: LiveHub
) -> None:
    started = await ask.rpc(ask.command("start", "t-wait", text="?", params={"timeout": 300}))
    assert started.status.state == TaskState.AwaitingInput
    await asyncio.sleep(1.0)
    ended = await ask.client.get_task("t-wait", ask.session_id)
    assert ended.status.state == TaskState.Canceled
    assert "timed out" in ended.status.dataItems[0].text  # type: ignore[index,union-attr]
    assert await hub_state(ask, "t-wait") == "canceled"  # the partner's move, not a 409
    assert await live_hub.answered(409) == 0


async def test_start_timeout_completes_a_task_left_awaiting_completion(echo: Peers) -> None:
    started = await echo.rpc(echo.command("start", "t-idle", text="x", params={"timeout": 300}))
    assert started.status.state == TaskState.AwaitingCompletion
    await asyncio.sleep(1.0)
    ended = await echo.client.get_task("t-idle", echo.session_id)
    assert ended.status.state == TaskState.Completed
    assert await hub_state(echo, "t-idle") == "completed"
    late = await echo.client.continue_task("t-idle", echo.session_id, "more")  # ignored
    assert late.status.state == TaskState.Completed


async def test_max_products_bytes_fails_a_task_whose_products_pass_it(echo: Peers) -> None:
    params = {"maxProductsBytes": 5}
    failed = await echo.rpc(echo.command("start", "t-big", text="more than five", params=params))
    assert failed.status.state == TaskState.Failed
    assert "exceeds maxProductsBytes=5" in failed.status.dataItems[0].text  # type: ignore[index,union-attr]
    assert not failed.products
    fits = await echo.rpc(echo.command("start", "t-fit", text="five!", params=params))
    assert fits.status.state == TaskState.AwaitingCompletion
