"""AIP conformance, the leader's side: a kit leader calls acps-sdk 2.1.0 partners built with
``add_aip_rpc_router`` and served over mutual TLS with acps-sdk's own server context."""

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
from acps_sdk.aip.aip_rpc_server import (
    CommandHandlers,
    TaskManager,
    add_aip_rpc_router,
    handle_rpc_request,
)
from fastapi import FastAPI, Request

from agenthub import AnswerMismatchError, CallFailed
from tests.support.acps import acps_partner
from tests.support.kit import LiveHub, MakeLiveAgent


def _handlers(aic: str | None) -> CommandHandlers:
    """A start answered with its result; sent as ``aic`` (AIP 6.0), or as acps-sdk's
    TaskManager leaves it ("server") when ``aic`` is None."""

    async def on_start(command: TaskCommand, task: TaskResult | None) -> TaskResult:
        if task is not None:
            return task
        created = TaskManager.create_task(command)
        if aic is not None:
            created.senderId = aic
        TaskManager.update_task_status(created.taskId, TaskState.Working)
        TaskManager.set_products(
            created.taskId, [Product(id="answer", dataItems=[TextDataItem(text="ok")])]
        )
        return TaskManager.update_task_status(created.taskId, TaskState.AwaitingCompletion)

    return CommandHandlers(on_start=on_start)


def _as_itself(aic: str) -> FastAPI:
    app = FastAPI()
    add_aip_rpc_router(app, "/aip", _handlers(aic))
    return app


def _as_server(_aic: str) -> FastAPI:
    app = FastAPI()
    add_aip_rpc_router(app, "/aip", _handlers(None))
    return app


def _answering_another_request(aic: str) -> FastAPI:
    """acps-sdk's own request handling, its answer given another request's id."""
    app = FastAPI()

    @app.post("/aip")
    async def rpc(request: Request) -> Any:
        answer = await handle_rpc_request(request, _handlers(aic))
        answer.id = "someone-elses"
        return answer

    return app


async def _leader(make_live_agent: MakeLiveAgent, partner_id: str) -> tuple[Any, str]:
    agent = await make_live_agent("kit-leader")
    session = await agent.leader.open_session([partner_id])
    return agent, session.id


async def test_kit_leader_and_an_acps_partner_agree_out_of_state_commands_are_ignored(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    async with acps_partner(live_hub, tmp_path, _as_itself) as (aic, _):
        agent, session_id = await _leader(make_live_agent, aic)
        lead = agent.leader
        await lead.start(aic, session_id=session_id, task_id="t-ig", text="go")
        done = await lead.complete(aic, session_id=session_id, task_id="t-ig")
        assert done["status"]["state"] == "completed"
        for again in (lead.complete, lead.cancel):  # acps-sdk answers the snapshot: no error
            answer = await again(aic, session_id=session_id, task_id="t-ig")
            assert TaskResult.model_validate(answer).status.state == TaskState.Completed
        got = await lead.get(aic, session_id=session_id, task_id="t-ig")
        assert [c["command"] for c in got["commandHistory"]][-2:] == ["complete", "complete"]
    assert await agent.recorder.flush(10) and not agent.recorder.failures
    task = (await agent.hub.request("GET", "/v1/tasks/t-ig")).json()
    assert task["state"] == "completed"
    assert await live_hub.answered(409) == 0  # the ignored commands were kept, not refused


async def test_kit_leader_refuses_an_answer_not_from_the_partner_called(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    """AIP 6.0: an answer's senderId must be the partner's AIC; acps-sdk's TaskManager,
    left as it is, answers as "server"."""
    async with acps_partner(live_hub, tmp_path, _as_server) as (aic, _):
        agent, session_id = await _leader(make_live_agent, aic)
        with pytest.raises(AnswerMismatchError) as refused:
            await agent.leader.start(aic, session_id=session_id, task_id="t-who", text="go")
    assert refused.value.data == {"senderId": "server"}
    assert isinstance(refused.value, CallFailed)


async def test_kit_leader_refuses_an_answer_to_another_request(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    async with acps_partner(live_hub, tmp_path, _answering_another_request) as (aic, _):
        agent, session_id = await _leader(make_live_agent, aic)
        with pytest.raises(AnswerMismatchError, match="someone-elses"):
            await agent.leader.start(aic, session_id=session_id, task_id="t-id", text="go")
