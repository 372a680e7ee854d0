"""The hub's record of a task a kit leader drives on an
a2a-sdk 1.3 server agent says what the leader and the agent say, for every task.

The agent is tests/support/a2a_peer.py's, built as a2a-sdk's samples build one (an
``AgentExecutor``, ``DefaultRequestHandler`` over an ``InMemoryTaskStore``, the JSON-RPC and
card routes, served by uvicorn on loopback); what it says of a task is its own task store's.

The kit records an A2A agent's ``COMPLETED`` as ``awaiting-completion`` and ends it by the
leader's ``complete`` (agenthub.a2a.convert). A ``cancel`` of a task the agent has ended is
refused by a2a-sdk (``TaskNotCancelableError``): the leader raises a kit error carrying it and
where the agent says the task is, and the hub keeps the cancel as an ignored command (AIP
§4.5) with the task where the agent says (the hub once said ``canceled``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from a2a.server.context import ServerCallContext
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import ListTasksRequest, Task, TaskState
from a2a.utils.errors import TaskNotCancelableError

from agenthub.errors import A2ACallFailed, CallFailed
from tests.kit.test_a2a_leader import WAIT_SECONDS, register_peer
from tests.support.a2a_peer import serve_peer
from tests.support.kit import LiveHub, MakeLiveAgent, hub_task, settled
from tests.support.waiting import eventually

ENDED = {  # an A2A agent's end, as the hub's task ends
    TaskState.TASK_STATE_COMPLETED: "completed",
    TaskState.TASK_STATE_CANCELED: "canceled",
    TaskState.TASK_STATE_FAILED: "failed",
    TaskState.TASK_STATE_REJECTED: "rejected",
}


@pytest.fixture(params=["1.0", "0.3"])
async def agent_and_store(
    request: pytest.FixtureRequest, live_hub: LiveHub
) -> AsyncIterator[tuple[str, InMemoryTaskStore]]:
    """A registered a2a-sdk agent speaking one A2A version, and its own task store."""
    version = str(request.param)
    store = InMemoryTaskStore()
    async with serve_peer(versions=(version,), task_store=store) as url:
        yield await register_peer(live_hub, url, (version,)), store


async def agent_tasks(store: InMemoryTaskStore, session_id: str) -> dict[str, Task]:
    """The agent's tasks in the session (its A2A context), by the id of the message that
    started each (the leader's start command's)."""
    listed = await store.list(ListTasksRequest(context_id=session_id), ServerCallContext())
    return {t.history[0].message_id: t for t in listed.tasks}


def states(history: list[dict[str, Any]]) -> list[str]:
    return [s["state"] for s in history]


def in_order(said: list[str], history: list[str]) -> bool:
    """Whether the states the leader said (a state said again once) are in the hub's
    history, in the order said."""
    moves = [s for i, s in enumerate(said) if i == 0 or said[i - 1] != s]
    rest = iter(history)
    return all(state in rest for state in moves)


async def test_the_hub_says_what_an_a2a_sdk_agent_and_the_kit_leader_say(
    live_hub: LiveHub,
    make_live_agent: MakeLiveAgent,
    agent_and_store: tuple[str, InMemoryTaskStore],
) -> None:
    peer, store = agent_and_store
    agent = await make_live_agent("kit-leader", https=False)
    lead = agent.leader
    session_id = (await lead.open_session([peer])).id
    where = {"session_id": session_id}
    said: dict[str, list[str]] = {}  # every state the leader answered, task by task
    refused: dict[str, A2ACallFailed] = {}

    async def refused_cancel(task_id: str) -> None:
        with pytest.raises(CallFailed) as caught:
            await lead.cancel(peer, task_id=task_id, **where)
        error = caught.value
        assert isinstance(error, A2ACallFailed), repr(error)
        assert isinstance(error.error, TaskNotCancelableError)
        assert error.code == -32002  # A2A's TaskNotCancelableError
        assert error.result is not None  # where the agent says the task is
        say(task_id, error.result)
        refused[task_id] = error

    def say(task_id: str, answer: dict[str, Any]) -> None:
        said.setdefault(task_id, []).append(answer["status"]["state"])

    # start -> the agent completes -> the leader's complete -> a cancel the agent refuses
    say("t-done", await lead.start(peer, task_id="t-done", text="go", **where))
    say("t-done", await lead.complete(peer, task_id="t-done", **where))
    await refused_cancel("t-done")
    # start -> asks -> continue -> the agent completes -> a cancel the agent refuses
    say("t-answered", await lead.start(peer, task_id="t-answered", text="ask me", **where))
    say("t-answered", await lead.continue_task(peer, task_id="t-answered", text="42", **where))
    await refused_cancel("t-answered")
    # start -> asks -> continue (asks again) -> cancel
    say("t-ask", await lead.start(peer, task_id="t-ask", text="ask me", **where))
    say("t-ask", await lead.continue_task(peer, task_id="t-ask", text="ask again", **where))
    say("t-ask", await lead.cancel(peer, task_id="t-ask", **where))

    assert said == {
        "t-done": ["awaiting-completion", "completed", "completed"],
        "t-answered": ["awaiting-input", "awaiting-completion", "completed"],
        "t-ask": ["awaiting-input", "awaiting-input", "canceled"],
    }
    await settled(agent)
    assert not agent.recorder.failures
    messages = (await agent.hub.request("GET", f"/v1/sessions/{session_id}/messages")).json()
    commands = [m for m in messages["items"] if m["type"] == "task-command"]
    starts = {m["taskId"]: m["id"] for m in commands if m["command"] == "start"}
    agent_says = await agent_tasks(store, session_id)
    for task_id, answers in said.items():
        a2a_task = agent_says[starts[task_id]]
        task = (await agent.hub.request("GET", f"/v1/tasks/{task_id}")).json()
        assert task["state"] == answers[-1] == ENDED[a2a_task.status.state], task_id
        assert in_order(answers, states(task["statusHistory"])), (task_id, task)
        # the leader's cancel is in the session's history, each one (ignored where refused)
        cancels = [m for m in commands if m["taskId"] == task_id and m["command"] == "cancel"]
        assert len(cancels) == 1, (task_id, cancels)
    hub = {t: (await agent.hub.request("GET", f"/v1/tasks/{t}")).json() for t in said}
    assert states(hub["t-done"]["statusHistory"]) == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert states(hub["t-answered"]["statusHistory"]) == [
        "accepted",
        "working",
        "awaiting-input",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert states(hub["t-ask"]["statusHistory"]) == [
        "accepted",
        "working",
        "awaiting-input",
        "working",
        "awaiting-input",
        "canceled",
    ]
    for task_id in ("t-done", "t-answered"):  # the agent's products, as the hub has them
        products = hub[task_id]["products"]
        text = products[0]["dataItems"][0]["text"]
        assert text == {"t-done": "go", "t-answered": "42"}[task_id]
        assert refused[task_id].result is not None
        assert refused[task_id].result["products"] == products
    assert await live_hub.answered(409) == 0


async def test_a_cancel_reaches_a_blocking_start_in_flight(
    make_live_agent: MakeLiveAgent, agent_and_store: tuple[str, InMemoryTaskStore]
) -> None:
    """A start with no ``timeout`` waits for the task; the agent streams, so the leader
    has the agent's task id from its first event, and a cancel meanwhile reaches the task:
    the start answers it canceled, and the agent, the leader and the hub agree."""
    peer, store = agent_and_store
    agent = await make_live_agent("leader", https=False)
    session = await agent.leader.open_session([peer])
    where = {"session_id": session.id, "task_id": "t-block"}
    start = asyncio.create_task(agent.leader.start(peer, text="slow", **where))

    async def at_work() -> bool:
        await settled(agent)
        task = await agent.hub.request("GET", "/v1/tasks/t-block")
        return task.status_code == 200 and task.json()["state"] == "working"

    await eventually(at_work, "the start's first events recorded")
    assert not start.done()
    canceled = await agent.leader.cancel(peer, **where)
    assert canceled.state.value == "canceled"
    answered = await asyncio.wait_for(start, WAIT_SECONDS)  # not the agent's 30 s
    assert answered.state.value == "canceled"
    said = await agent_tasks(store, session.id)
    assert [t.status.state for t in said.values()] == [TaskState.TASK_STATE_CANCELED]
    await settled(agent)
    task = await hub_task(agent, "t-block")
    assert task["state"] == "canceled"
    assert states(task["statusHistory"]) == ["accepted", "working", "canceled"]
    assert not agent.recorder.failures


async def test_a_cancel_of_a_blocking_start_at_an_agent_that_does_not_stream_says_why(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """An agent that does not stream answers a blocking start only at its end, so the
    leader has no task id to cancel meanwhile: refused at once, in one line, saying why
    (a2a-sdk's -32602 "Validation failed" said nothing)."""
    store = InMemoryTaskStore()
    async with serve_peer(versions=("1.0",), task_store=store, streaming=False) as url:
        peer = await register_peer(live_hub, url, ("1.0",))
        agent = await make_live_agent("leader", https=False)
        session = await agent.leader.open_session([peer])
        where = {"session_id": session.id, "task_id": "t-blind"}
        start = asyncio.create_task(agent.leader.start(peer, text="slow", **where))

        async def at_work() -> bool:
            said = await agent_tasks(store, session.id)
            return any(t.status.state == TaskState.TASK_STATE_WORKING for t in said.values())

        await eventually(at_work, "the agent at work")
        with pytest.raises(CallFailed, match="has not named task t-blind yet") as refused:
            await agent.leader.cancel(peer, **where)
        assert not isinstance(refused.value, A2ACallFailed) and "\n" not in str(refused.value)
        start.cancel()
        with pytest.raises(asyncio.CancelledError):
            await start


async def test_a_start_the_agent_answers_with_an_error_is_recorded_as_the_agent_has_it(
    make_live_agent: MakeLiveAgent, agent_and_store: tuple[str, InMemoryTaskStore]
) -> None:
    """The agent's executor fails: a2a-sdk answers the start with an error and keeps the
    task failed. The leader asks the agent where its task is and the hub's task ends
    failed as the agent's, not accepted or submitted."""
    peer, store = agent_and_store
    agent = await make_live_agent("leader", https=False)
    session = await agent.leader.open_session([peer])
    with pytest.raises(A2ACallFailed) as failed:
        await agent.leader.start(peer, session_id=session.id, text="crash", task_id="t-crash")
    assert failed.value.code == -32603
    said = await agent_tasks(store, session.id)
    assert [t.status.state for t in said.values()] == [TaskState.TASK_STATE_FAILED]
    assert failed.value.result is not None and failed.value.result["status"]["state"] == "failed"
    await settled(agent)
    task = await hub_task(agent, "t-crash")
    assert task["state"] == "failed"
    assert not agent.recorder.failures
