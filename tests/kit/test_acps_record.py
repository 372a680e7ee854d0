"""The hub's record of a task a kit leader drives on an acps-sdk 2.1.0
partner (``add_aip_rpc_router``, served over mutual TLS with acps-sdk's own ``MTLSConfig``)
says what the leader and the partner say, for every task.

acps-sdk's ``TaskManager`` keeps one ``TaskResult`` per task and mutates it: every answer of a
task carries the same message ``id`` and ``sentAt``, and differs in its status, histories and
products. The hub records each distinct answer, in order; an answer sent again unchanged (a
``cancel`` of an ended task is answered with the same snapshot) stays one record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from acps_sdk.aip.aip_base_model import (
    Product,
    TaskCommand,
    TaskResult,
    TaskState,
    TextDataItem,
)
from acps_sdk.aip.aip_rpc_server import CommandHandlers, TaskManager, add_aip_rpc_router
from fastapi import FastAPI

from agenthub import AnswerMismatchError, CallFailed
from tests.support.acps import acps_partner
from tests.support.kit import LiveHub, MakeLiveAgent


def _text(command: TaskCommand) -> str:
    items = command.dataItems or []
    return " ".join(i.text for i in items if isinstance(i, TextDataItem))


def _partner(aic: str) -> FastAPI:
    """An acps-sdk partner written as its README writes one: a start that says "ask" asks
    for input, any other is answered and awaits completion; a continue works on the new
    text; cancel and complete are acps-sdk's defaults (an ended task's snapshot, unchanged)."""

    def answer(task_id: str, text: str) -> TaskResult:
        TaskManager.update_task_status(task_id, TaskState.Working)
        if text.startswith("ask"):
            return TaskManager.update_task_status(task_id, TaskState.AwaitingInput)
        TaskManager.set_products(
            task_id, [Product(id="answer", dataItems=[TextDataItem(text=f"acps: {text}")])]
        )
        return TaskManager.update_task_status(task_id, TaskState.AwaitingCompletion)

    async def on_start(command: TaskCommand, task: TaskResult | None) -> TaskResult:
        if task is not None:
            return task
        created = TaskManager.create_task(command)
        created.senderId = aic  # AIP 6.0: the answer is the partner's, by its AIC
        return answer(created.taskId, _text(command))

    async def on_continue(command: TaskCommand, task: TaskResult) -> TaskResult:
        if task.status.state not in (TaskState.AwaitingInput, TaskState.AwaitingCompletion):
            return task
        TaskManager.add_command_to_history(task.taskId, command)
        return answer(task.taskId, _text(command))

    app = FastAPI()
    add_aip_rpc_router(app, "/aip", CommandHandlers(on_start=on_start, on_continue=on_continue))
    return app


def _states(history: list[Any]) -> list[str]:
    return [s["state"] if isinstance(s, dict) else s.state.value for s in history]


async def test_the_hub_says_what_an_acps_partner_and_the_kit_leader_say(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    async with acps_partner(live_hub, tmp_path, _partner) as (aic, _):
        agent = await make_live_agent("kit-leader")
        lead = agent.leader
        session_id = (await lead.open_session([aic])).id
        where = {"session_id": session_id}
        said: dict[str, dict[str, Any]] = {}
        # start -> continue -> complete -> a cancel the partner ignores
        await lead.start(aic, task_id="t-done", text="go", **where)
        await lead.continue_task(aic, task_id="t-done", text="once more", **where)
        done = await lead.complete(aic, task_id="t-done", **where)
        assert done["status"]["state"] == "completed"
        said["t-done"] = await lead.cancel(aic, task_id="t-done", **where)
        assert said["t-done"]["status"]["state"] == "completed"  # acps-sdk ignored it
        # ask -> continue -> cancel
        asked = await lead.start(aic, task_id="t-ask", text="ask me", **where)
        assert asked["status"]["state"] == "awaiting-input"
        again = await lead.continue_task(aic, task_id="t-ask", text="ask again", **where)
        assert again["status"]["state"] == "awaiting-input"
        said["t-ask"] = await lead.cancel(aic, task_id="t-ask", **where)
        assert said["t-ask"]["status"]["state"] == "canceled"
        partner_says = {t: TaskManager.get_task(t) for t in said}
        assert await agent.recorder.flush(10) and not agent.recorder.failures
        for task_id, last in said.items():
            partner = partner_says[task_id]
            assert partner is not None
            task = (await agent.hub.request("GET", f"/v1/tasks/{task_id}")).json()
            assert task["state"] == last["status"]["state"] == partner.status.state.value
            assert _states(task["statusHistory"]) == _states(partner.statusHistory or [])
            assert _states(task["statusHistory"]) == _states(last["statusHistory"])
        products = (await agent.hub.request("GET", "/v1/tasks/t-done")).json()["products"]
        assert products[0]["dataItems"][0]["text"] == "acps: once more"
        history = (await agent.hub.request("GET", f"/v1/sessions/{session_id}/messages")).json()
        relayed = [m for m in history["items"] if m.get("relayedBy")]
        # every distinct answer once: t-done's start, continue and complete (its cancel was
        # answered with the complete's snapshot again); t-ask's start, continue and cancel
        assert len(relayed) == 6, [m["status"]["state"] for m in relayed]
    assert await live_hub.answered(409) == 0


def _rejecting(aic: str) -> FastAPI:
    """An acps-sdk partner that creates its task (``accepted``, acps-sdk's start), then
    decides against it: ``rejected``."""

    async def on_start(command: TaskCommand, task: TaskResult | None) -> TaskResult:
        if task is not None:
            return task
        created = TaskManager.create_task(command)
        created.senderId = aic
        no = [TextDataItem(text="not this one")]
        return TaskManager.update_task_status(created.taskId, TaskState.Rejected, no)

    app = FastAPI()
    add_aip_rpc_router(app, "/aip", CommandHandlers(on_start=on_start))
    return app


async def test_an_acps_partner_that_rejects_an_accepted_task_is_recorded_rejected(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    async with acps_partner(live_hub, tmp_path, _rejecting) as (aic, _):
        agent = await make_live_agent("kit-leader")
        session_id = (await agent.leader.open_session([aic])).id
        refused = await live_hub.answered(409)
        answer = await agent.leader.start(aic, task_id="t-no", text="go", session_id=session_id)
        assert answer.state.value == "rejected"
        partner = TaskManager.get_task("t-no")
        assert partner is not None
        assert await agent.recorder.flush(10) and not agent.recorder.failures
    task = (await agent.hub.request("GET", "/v1/tasks/t-no")).json()
    assert task["state"] == "rejected"
    assert _states(task["statusHistory"]) == _states(partner.statusHistory or [])
    assert _states(task["statusHistory"]) == ["accepted", "rejected"]
    assert task["status"]["dataItems"][0]["text"] == "not this one"
    assert await live_hub.answered(409) == refused


def _as_acps_leaves_it(_aic: str) -> FastAPI:
    """acps-sdk's own start (``DefaultHandlers.start``): its answer's senderId is "server"."""
    app = FastAPI()
    add_aip_rpc_router(app, "/aip", CommandHandlers())
    return app


async def _failed_start(agent: Any, task_id: str) -> dict[str, Any]:
    assert await agent.recorder.flush(10) and not agent.recorder.failures
    task = dict((await agent.hub.request("GET", f"/v1/tasks/{task_id}")).json())
    assert task["state"] == "failed"
    assert _states(task["statusHistory"]) == ["failed"]
    return task


async def test_a_start_the_acps_partner_refuses_is_recorded_failed(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """acps-sdk serves ``rpc`` only: a ``stream`` start is answered -32700, no task made."""
    async with acps_partner(live_hub, tmp_path, _as_acps_leaves_it) as (aic, _):
        agent = await make_live_agent("kit-leader")
        session_id = (await agent.leader.open_session([aic])).id
        with pytest.raises(CallFailed) as failed:
            async for _ in agent.leader.start_streaming(
                aic, task_id="t-refused", text="go", session_id=session_id
            ):
                pass
        assert failed.value.code == -32700
        assert TaskManager.get_task("t-refused") is None  # no peer holds it
        task = await _failed_start(agent, "t-refused")
    said = task["status"]["dataItems"][0]["text"]
    assert said.startswith("The start call failed:") and "-32700" in said
    history = (await agent.hub.request("GET", f"/v1/sessions/{session_id}/messages")).json()
    ended = [m for m in history["items"] if m["type"] == "task-result"]
    assert [(m["relayedBy"], m["verified"]) for m in ended] == [(agent.agent_id, False)]


async def test_a_start_whose_answer_the_leader_refuses_is_recorded_failed(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    async with acps_partner(live_hub, tmp_path, _as_acps_leaves_it) as (aic, _):
        agent = await make_live_agent("kit-leader")
        session_id = (await agent.leader.open_session([aic])).id
        with pytest.raises(AnswerMismatchError):
            await agent.leader.start(aic, task_id="t-server", text="go", session_id=session_id)
        task = await _failed_start(agent, "t-server")
    said = task["status"]["dataItems"][0]["text"]
    assert said.startswith("The leader refused the partner's answer:") and "'server'" in said
