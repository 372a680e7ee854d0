"""The leader's calls answer typed: ``TaskAnswer`` (``.state``, ``.products``, ``.text``, and
still the raw JSON by item access), stream events by kind, ``Leader.run`` from start to end,
and a user's snippet that ``mypy --strict`` accepts (and one it refuses)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import orjson
import pytest

from agenthub import (
    Leader,
    ProductEvent,
    ResultEvent,
    StatusEvent,
    TaskAnswer,
    TaskContext,
)
from agenthub.protocol import TaskCommand, TaskState
from agenthub.task_run import run_task
from tests.support.kit import AskHandler, EchoHandler, MakeLiveAgent, hub_task, settled

REPO = Path(__file__).resolve().parents[2]


async def test_start_complete_and_get_answer_typed(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    started = await lead.start(partner.agent_id, session_id=session.id, text="hello", task_id="t1")
    assert isinstance(started, TaskAnswer)
    assert started.state is TaskState.AWAITING_COMPLETION and not started.final
    assert started.id == "t1" and started.sender_id == partner.agent_id
    assert [p.id for p in started.products] == ["echo"]
    assert started.text == "hello" and started.status_text == ""
    # the raw JSON, as before: item access, equality, a plain dict, serializable
    assert started["status"]["state"] == "awaiting-completion"
    assert type(started.raw) is dict and started.raw == started
    assert orjson.loads(orjson.dumps(started)) == json.loads(json.dumps(started)) == started.raw
    done = await lead.complete(partner.agent_id, session_id=session.id, task_id="t1")
    assert done.state is TaskState.COMPLETED and done.final
    snapshot = await lead.get(partner.agent_id, session_id=session.id, task_id="t1")
    assert isinstance(snapshot, TaskAnswer) and snapshot.state is TaskState.COMPLETED
    assert snapshot.text == "hello"
    refused = await lead.start(partner.agent_id, session_id=session.id, text="refuse")
    assert refused.state is TaskState.REJECTED and refused.final
    assert refused.products == [] and refused.text == "I refuse"


async def test_cancel_answers_typed_and_a_question_is_the_text(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("asker", AskHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    asked = await lead.start(partner.agent_id, session_id=session.id, text="go", task_id="t2")
    assert asked.state is TaskState.AWAITING_INPUT
    assert asked.text == asked.status_text == "what should I echo?"
    canceled = await lead.cancel(partner.agent_id, session_id=session.id, task_id="t2")
    assert isinstance(canceled, TaskAnswer) and canceled.state is TaskState.CANCELED


async def test_stream_events_are_typed_by_kind(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("asker", AskHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    first = [
        e
        async for e in lead.start_streaming(
            partner.agent_id, session_id=session.id, text="go", task_id="t3"
        )
    ]
    assert all(isinstance(e, ResultEvent) for e in first)  # each a move
    assert [e.state for e in first] == ["accepted", "working", "awaiting-input"]
    assert first[-1].text == "what should I echo?" and first[-1].task_id == "t3"
    command = lead.command("continue", session_id=session.id, task_id="t3", text="forty-two")
    second = [e async for e in lead.stream(partner.agent_id, command)]
    kinds = [type(e) for e in second]
    assert kinds == [ResultEvent, *[StatusEvent] * 3, *[ProductEvent] * 2, ResultEvent]
    progress = [e for e in second if isinstance(e, StatusEvent)]
    assert [(e.state, e.text) for e in progress] == [("working", f"step {i}") for i in range(3)]
    seqs = [e.seq for e in first + second]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs) and seqs[0] >= 1
    chunks = [e for e in second if isinstance(e, ProductEvent)]
    assert [(c.product.id, c.append, c.text, c.state) for c in chunks] == [
        ("report", False, "a", None),
        ("report", True, "b", None),
    ]
    last = second[-1]
    assert isinstance(last, ResultEvent) and last.state is TaskState.AWAITING_COMPLETION
    assert last.result.text == "a\nb" and last.result.status_text == "told: forty-two"
    assert last["eventData"]["status"]["state"] == "awaiting-completion"  # raw, as before
    await lead.complete(partner.agent_id, session_id=session.id, task_id="t3")
    resumed = [
        e
        async for e in lead.resume_stream(
            partner.agent_id, session_id=session.id, task_id="t3", last_event_seq=2, follow=True
        )
    ]
    assert resumed[-1].state is TaskState.COMPLETED


async def test_run_completes_the_task_it_started(make_live_agent: MakeLiveAgent) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler())
    session = await leader.leader.open_session([partner.agent_id])
    done = await leader.leader.run(
        partner.agent_id, session_id=session.id, text="hello", task_id="t-run"
    )
    assert done.state is TaskState.COMPLETED and done.text == "hello"
    await settled(leader, partner)
    assert (await hub_task(leader, "t-run"))["state"] == "completed"
    refused = await leader.leader.run(partner.agent_id, session_id=session.id, text="refuse")
    assert refused.state is TaskState.REJECTED and refused.text == "I refuse"


async def test_run_answers_questions_with_on_input_or_stops_at_them(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("asker", AskHandler())
    session = await leader.leader.open_session([partner.agent_id])
    asked: list[str] = []

    async def reply(answer: TaskAnswer) -> str:
        asked.append(answer.text)
        return "forty-two"

    done = await leader.leader.run(partner.agent_id, session_id=session.id, on_input=reply)
    assert done.state is TaskState.COMPLETED and done.text == "a\nb"
    assert asked == ["what should I echo?"]
    waiting = await leader.leader.run(partner.agent_id, session_id=session.id, text="go")
    assert waiting.state is TaskState.AWAITING_INPUT and waiting.text == "what should I echo?"


class Gated(EchoHandler):
    """Works until the test lets it finish."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    async def on_start(self, task: TaskContext) -> None:
        await task.working("thinking")
        await self.go.wait()
        await super().on_start(task)


class Looking:
    """A leader that opens the partner's gate when ``run`` first asks how the task is
    (``get``): so the task is surely still at work past the partner's rpc wait."""

    def __init__(self, leader: Leader, gate: asyncio.Event) -> None:
        self.leader = leader
        self.gate = gate
        self.looks = 0

    async def start(self, partner_id: str, *, session_id: str, **extra: Any) -> TaskAnswer:
        return await self.leader.start(partner_id, session_id=session_id, **extra)

    async def continue_task(
        self, partner_id: str, *, session_id: str, task_id: str, text: str | None = None
    ) -> TaskAnswer:
        raise AssertionError("nothing to continue")

    async def complete(self, partner_id: str, *, session_id: str, task_id: str) -> TaskAnswer:
        return await self.leader.complete(partner_id, session_id=session_id, task_id=task_id)

    def command(self, name: str, *, session_id: str, **extra: Any) -> TaskCommand:
        return self.leader.command(name, session_id=session_id, **extra)

    async def send(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, method: str = "rpc"
    ) -> TaskAnswer:
        assert command.command == "get" and not record
        answer = await self.leader.send(partner_id, command, record=record, method=method)
        self.looks += 1
        self.gate.set()
        return answer


async def test_run_waits_for_a_task_still_at_work(make_live_agent: MakeLiveAgent) -> None:
    gated = Gated()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("slow", gated)
    partner.endpoint.runtime.rpc_wait_seconds = 0.0  # type: ignore[union-attr]
    session = await leader.leader.open_session([partner.agent_id])
    looking = Looking(leader.leader, gated.go)
    done = await run_task(looking, partner.agent_id, session_id=session.id, text="late")
    assert looking.looks >= 1
    assert done.state is TaskState.COMPLETED and done.text == "late"


GOOD_SNIPPET = """
from typing import Any

from agenthub import Leader, ProductEvent, StatusEvent, TaskAnswer
from agenthub.protocol import Product, TaskState


async def use(leader: Leader, partner: str, session: str) -> str:
    answer: TaskAnswer = await leader.start(partner, session_id=session, text="hi")
    if answer.state is TaskState.AWAITING_COMPLETION:
        answer = await leader.complete(partner, session_id=session, task_id=answer.id)
    names: list[str] = [p.id for p in answer.products]
    async for event in leader.start_streaming(partner, session_id=session, text="go"):
        seq: int = event.seq
        if isinstance(event, StatusEvent):
            state: TaskState = event.state
        elif isinstance(event, ProductEvent):
            product: Product = event.product
    done = await leader.run(partner, session_id=session, text="x")
    raw: dict[str, Any] = done.raw
    return done.text + str(answer["status"]["state"]) + ",".join(names)
"""

BAD_SNIPPET = """
from agenthub import Leader


async def use(leader: Leader, partner: str, session: str) -> None:
    answer = await leader.start(partner, session_id=session, text="hi")
    answer.state + 1
    count: int = answer.text
    async for event in leader.start_streaming(partner, session_id=session):
        event.seq.upper()
"""


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def mypy_strict(tmp_path: Path, cache: Path, source: str) -> subprocess.CompletedProcess[str]:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(textwrap.dedent(source))
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(snippet)]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_a_users_snippet_passes_mypy_strict(tmp_path: Path, mypy_cache: Path) -> None:
    checked = mypy_strict(tmp_path, mypy_cache, GOOD_SNIPPET)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_snippet_misusing_the_types_fails_mypy_strict(tmp_path: Path, mypy_cache: Path) -> None:
    checked = mypy_strict(tmp_path, mypy_cache, BAD_SNIPPET)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    lines = {int(line.split(":")[1]) for line in checked.stdout.splitlines() if ": error:" in line}
    assert lines == {7, 8, 10}, checked.stdout  # the state, the text, the event's seq
