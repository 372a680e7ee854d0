"""examples/llm_leader.py, run as a user would against a live hub, two partners answered by
``agenthub.llm`` (a task handler, and a member that speaks when named) and a fake
OpenAI-compatible endpoint whose answers follow from the prompt: the model's plan, its
choice of partner for each sub-task and of each next speaker show in the leader's output
and in the hub's record. Then ``ChatModel.plan`` and ``choose`` on their own, and the
example's one-line refusals."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from agenthub import Agent, ChatCompletionsHandler, LLMCallError, LLMConfig
from agenthub.llm import CHOOSE_PROMPT, PLAN_PROMPT, ChatModel
from agenthub.llm_groups import take_part_in_groups
from agenthub.protocol.agents import AgentUpdate
from tests.support.chat_server import FakeChatServer, fake_chat
from tests.support.cli import AGENTHUB, clean_env
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import LiveHub, MakeLiveAgent
from tests.support.live import free_port, interrupt
from tests.support.waiting import eventually

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "llm_leader.py"
MODEL = "fake-model"
GOAL = "a note on heat pumps"
PLAN = ["draft a note on heat pumps", "review the note for gaps"]
RUN_SECONDS = 120
PARTNERS = {
    "writer": ("writes a first draft of any note", "draft", ["draft", "note", "writing"]),
    "critic": ("reviews a text and says what is missing", "review", ["review", "gaps"]),
}


def model_reply(system: str, user: str) -> str:
    """The fake model: a fenced JSON plan (nonsense when the goal asks for it); for a
    sub-task, the option whose description holds the sub-task's first word; for turn N, the
    option names sorted, the (N mod count)th; anything else: who answers, and to what."""
    if system == PLAN_PROMPT:
        if "nonsense" in user:
            return "Sure! Here are some ideas: banana, more banana."
        return "```json\n" + str(PLAN).replace("'", '"') + "\n```"
    if system == CHOOSE_PROMPT:
        options = dict(re.findall(r"^- ([\w-]+): (.*)$", user, re.M))
        if sub_task := re.search(r"^Sub-task: (\w+)", user, re.M):
            return next(n for n, about in options.items() if sub_task[1] in about) + "."
        turn = re.search(r"This is turn (\d+) of", user)
        assert turn is not None, user
        return f'"{sorted(options)[int(turn[1]) % len(options)]}"'
    speaker = system.removeprefix("You are ").rstrip(".")
    return f"{speaker} on {user.split('.')[0]}"


@pytest.fixture
async def fake_model() -> AsyncIterator[FakeChatServer]:
    async with fake_chat(model_reply, model=MODEL) as fake:
        yield fake


@asynccontextmanager
async def team_on(base_url: str, make_live_agent: MakeLiveAgent) -> AsyncIterator[dict[str, Agent]]:
    """The two partners, each as examples/llm_partner.py runs: tasks by the handler, groups by
    ``take_part_in_groups``, both on the model at ``base_url``."""
    made: dict[str, Agent] = {}
    handlers: list[ChatCompletionsHandler] = []
    members: list[asyncio.Task[None]] = []
    for name, (description, skill, tags) in PARTNERS.items():
        config = LLMConfig(base_url=base_url, model=MODEL, system_prompt=f"You are {name}.")
        handler = ChatCompletionsHandler(config)
        handlers.append(handler)
        agent = await make_live_agent(name, handler)
        await agent.hub.update_self(
            AgentUpdate.model_validate(
                {
                    "description": description,
                    "skills": [{"id": skill, "name": skill.title(), "tags": tags}],
                }
            )
        )
        members.append(asyncio.create_task(take_part_in_groups(agent.hub, handler.model)))
        made[name] = agent
    try:
        yield made
    finally:
        for member in members:
            member.cancel()
        await asyncio.gather(*members, return_exceptions=True)
        for handler in handlers:
            await handler.aclose()


@pytest.fixture
async def partners(
    fake_model: FakeChatServer, make_live_agent: MakeLiveAgent
) -> AsyncIterator[dict[str, Agent]]:
    async with team_on(fake_model.base_url, make_live_agent) as made:
        yield made


async def run_example(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(EXAMPLE),
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(RUN_SECONDS):
            out, err = await proc.communicate()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def example_env(hub: LiveHub, fake: FakeChatServer, **more: str) -> dict[str, str]:
    return clean_env(
        AGENTHUB_URL=hub.url,
        AGENTHUB_TOKEN=REGISTRATION_TOKEN,
        AGENTHUB_LLM_BASE_URL=fake.base_url,
        AGENTHUB_LLM_MODEL=MODEL,
        AGENTHUB_LLM_TIMEOUT_SECONDS="20",
        LLM_LEADER_PORT=str(free_port()),
        **more,
    )


async def group_of(agent: Agent) -> str:
    """The group ``agent`` was invited to, from its inbox."""
    async with asyncio.timeout(RUN_SECONDS):
        async for event in agent.hub.inbox():
            if event.kind == "member" and event.data.get("state") == "invited":
                group_id: str = event.data["groupId"]
                return group_id
    raise AssertionError("no invitation")


async def test_the_leader_plans_delegates_and_hands_the_floor_as_the_model_says(
    live_hub: LiveHub, fake_model: FakeChatServer, partners: dict[str, Agent]
) -> None:
    env = example_env(live_hub, fake_model, LLM_LEADER_TURNS="3")
    code, out, err = await run_example(env, GOAL)
    assert code == 0, err[-3000:]
    lines = out.splitlines()
    assert lines[:3] == [f"goal: {GOAL}", f"plan 1: {PLAN[0]}", f"plan 2: {PLAN[1]}"]
    assert f"the model chose writer for: {PLAN[0]}" in lines
    assert f"the model chose critic for: {PLAN[1]}" in lines
    assert f"task for writer: completed: writer on {PLAN[0]}" in lines
    assert f"task for critic: completed: critic on {PLAN[1]}" in lines
    # turn N: sorted names [critic, writer], the (N mod 2)th
    floor = [line for line in lines if line.startswith("turn ")]
    assert floor == [
        "turn 1: the model gave the floor to writer",
        "turn 2: the model gave the floor to critic",
        "turn 3: the model gave the floor to writer",
    ]
    assert "  writer: writer on writer, your turn" in lines
    assert lines[-1] == "group concluded"
    assert not any(agent.agent_id in out for agent in partners.values())  # names, not ids
    # the model was asked: a plan, a partner for each sub-task, a speaker for each turn
    assert len(fake_model.asked("option names")) == 2 + 3
    assert "Goal: a note on heat pumps" in fake_model.asked("sub-tasks")[0]
    told = fake_model.asked("You are critic")[-1]  # its turn: what was said so far
    assert told.startswith("critic, your turn. Goal: a note on heat pumps. So far: [")
    assert "[writer: writer on writer, your turn]" in told

    # the hub's record: each partner's task completed, with the model's answer
    writer, critic = partners["writer"], partners["critic"]
    for name, agent in partners.items():
        page = (await agent.hub.request("GET", "/v1/tasks", params={"role": "partner"})).json()
        (task,) = page["items"]
        assert task["state"] == "completed", task
        expected = f"{name} on {PLAN[0] if name == 'writer' else PLAN[1]}"
        assert task["products"][0]["dataItems"][0]["text"] == expected
    # and the group's posts: the leader naming each speaker, the speaker answering, in turn
    group_id = await group_of(writer)
    group = await writer.hub.groups.get(group_id)
    assert (group.speaking_policy, group.conversation_state) == ("turns", "conclusion")
    history = await writer.hub.groups.history(group_id, limit=200)
    posts = [m for m in history["items"] if m.get("type") == "message"]
    names = {writer.agent_id: "writer", critic.agent_id: "critic"}
    said = [(names.get(m["senderId"], "leader"), m.get("nextSpeaker")) for m in posts]
    assert said == [
        ("leader", [writer.agent_id]),
        ("writer", None),
        ("leader", [critic.agent_id]),
        ("critic", None),
        ("leader", [writer.agent_id]),
        ("writer", None),
    ]


@pytest.mark.slow
async def test_the_example_runs_end_to_end_on_agenthub_fake_model(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    """No model to set up: ``agenthub fake-model`` (a process of its own) stands in for one,
    for the leader and its partners, as the LLM guide says."""
    port = free_port()
    model = subprocess.Popen(
        [AGENTHUB, "fake-model", "--port", str(port)],
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:

        async def answers() -> bool:
            try:
                async with httpx.AsyncClient(timeout=5) as http:
                    return (await http.get(f"{base}/models")).status_code == 200
            except httpx.TransportError:
                assert model.poll() is None, model.stdout.read() if model.stdout else ""
                return False

        await eventually(answers, "agenthub fake-model answering")
        async with team_on(base, make_live_agent):
            env = clean_env(
                AGENTHUB_URL=live_hub.url,
                AGENTHUB_TOKEN=REGISTRATION_TOKEN,
                AGENTHUB_LLM_BASE_URL=base,
                AGENTHUB_LLM_MODEL=MODEL,
                LLM_LEADER_PORT=str(free_port()),
                LLM_LEADER_TURNS="2",
            )
            code, out, err = await run_example(env, GOAL)
    finally:
        interrupt(model)
    said = model.stdout.read() if model.stdout else ""
    assert said.startswith(f"a stand-in for a language model, 'fake-model', at {base} "), said
    assert "Traceback" not in said
    assert code == 0, err[-3000:]
    lines = out.splitlines()
    assert lines[:3] == [
        f"goal: {GOAL}",
        f"plan 1: draft {GOAL}",
        f"plan 2: review the draft of {GOAL} and say what is missing",
    ]
    assert f"the model chose writer for: draft {GOAL}" in lines
    assert (
        f"the model chose critic for: review the draft of {GOAL} and say what is missing" in lines
    )
    tasks = [line for line in lines if line.startswith("task for ")]
    assert len(tasks) == 2 and all(": completed: (a stand-in for" in line for line in tasks)
    assert len([line for line in lines if line.startswith("turn ")]) == 2
    assert lines[-1] == "group concluded"


async def test_a_nonsense_plan_is_one_line_and_exit_1(
    live_hub: LiveHub, fake_model: FakeChatServer
) -> None:
    code, out, err = await run_example(example_env(live_hub, fake_model), "nonsense please")
    assert code == 1
    assert err.splitlines() == [
        "llm_leader: the language model's plan is not a JSON list of 1 to 5 sub-tasks: "
        "'Sure! Here are some ideas: banana, more banana.'"
    ]
    assert out.splitlines() == ["goal: nonsense please"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "llm_leader: set AGENTHUB_LLM_BASE_URL and AGENTHUB_LLM_MODEL for the language model"),
        (
            {"AGENTHUB_LLM_BASE_URL": "http://127.0.0.1:9/v1"},
            "llm_leader: set AGENTHUB_LLM_MODEL for the language model",
        ),
        (
            {"AGENTHUB_LLM_BASE_URL": "http://127.0.0.1:9/v1", "AGENTHUB_LLM_MODEL": "m"}
            | {"LLM_LEADER_TURNS": "many"},
            "llm_leader: LLM_LEADER_TURNS must be 1 to 50, not 'many'",
        ),
    ],
)
async def test_missing_configuration_is_one_line_and_exit_2(
    env: dict[str, str], message: str
) -> None:
    """Before anything reaches a hub (the URL here has none)."""
    settings = {"AGENTHUB_URL": "http://127.0.0.1:9", **env}
    code, out, err = await run_example(clean_env(**settings))
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith(message), line
    assert out == ""


@pytest.fixture
async def model(fake_model: FakeChatServer) -> AsyncIterator[ChatModel]:
    chat = ChatModel(LLMConfig(base_url=fake_model.base_url, model=MODEL, timeout_seconds=5))
    try:
        yield chat
    finally:
        await chat.aclose()


def answering(answer: str) -> Any:
    def reply(system: str, user: str) -> str:
        return answer

    return reply


@pytest.mark.parametrize(
    ("answer", "steps"),
    [
        ('["a", "b  c"]', ["a", "b c"]),
        ('```json\n["one"]\n```', ["one"]),
        ('```\n[\n "x",\n "y"\n]\n```', ["x", "y"]),
    ],
)
async def test_plan_takes_a_json_list(
    fake_model: FakeChatServer, model: ChatModel, answer: str, steps: list[str]
) -> None:
    fake_model.reply = answering(answer)
    assert await model.plan("g") == steps
    assert fake_model.requests[-1] == {
        "system": PLAN_PROMPT,
        "user": "Goal: g\nSplit it into at most 5 sub-tasks.",
    }


@pytest.mark.parametrize(
    "answer", ["1. a\n2. b", "[]", '["a", 3]', '["a", " "]', '{"steps": ["a"]}', '["a","b","c"]']
)
async def test_plan_refuses_anything_else(
    fake_model: FakeChatServer, model: ChatModel, answer: str
) -> None:
    fake_model.reply = answering(answer)
    with pytest.raises(LLMCallError, match="plan is not a JSON list of 1 to 2 sub-tasks"):
        await model.plan("g", most=2)


@pytest.mark.parametrize(
    ("answer", "picked"),
    [("critic", "critic"), ('"Writer".', "writer"), ("I pick the critic here.", "critic")],
)
async def test_choose_takes_one_option(
    fake_model: FakeChatServer, model: ChatModel, answer: str, picked: str
) -> None:
    fake_model.reply = answering(answer)
    options = {"writer": "writes", "critic": "reviews"}
    assert await model.choose("who?", options) == picked
    assert (
        fake_model.requests[-1]["user"] == "who?\n\nOptions:\n- writer: writes\n- critic: reviews"
    )


@pytest.mark.parametrize("answer", ["banana", "writer or critic", "writers"])
async def test_choose_refuses_anything_else(
    fake_model: FakeChatServer, model: ChatModel, answer: str
) -> None:
    fake_model.reply = answering(answer)
    with pytest.raises(LLMCallError, match=f"answered '{answer}', not one of: writer, critic"):
        await model.choose("who?", {"writer": "", "critic": ""})


async def test_a_member_whose_model_fails_says_so_in_its_turn(
    fake_model: FakeChatServer, make_live_agent: MakeLiveAgent
) -> None:
    """The turn is not left to time out: the member posts what went wrong."""
    fake_model.reply = answering("  ")  # no text: a failure of the model
    owner = await make_live_agent("owner", serve=False)
    member = await make_live_agent("member", serve=False)
    session = await owner.leader.open_session([{"agentId": member.agent_id, "mode": "group"}])
    groups = owner.hub.groups
    group = await groups.create(session.id, "table", speaking_policy="turns")
    events = groups.events(group.id)
    model = ChatModel(LLMConfig(base_url=fake_model.base_url, model=MODEL, timeout_seconds=5))
    taking_part = asyncio.create_task(take_part_in_groups(member.hub, model))
    said = None
    try:
        async with asyncio.timeout(RUN_SECONDS):
            await groups.invite(group.id, member.agent_id)
            async for event in events:
                data = event.data
                if data.get("agentId") == member.agent_id and data.get("state") == "active":
                    break
            await groups.post(group.id, "now you", role="leader", next_speaker=[member.agent_id])
            async for event in events:
                if event.data.get("senderId") == member.agent_id:
                    said = event.data["dataItems"][0]["text"]
                    break
    finally:
        events.close()
        taking_part.cancel()
        await asyncio.gather(taking_part, return_exceptions=True)
        await model.aclose()
    assert said == "(no answer: the language model gave no text reply)"
    assert fake_model.asked("helpful assistant") == ["now you"]


async def test_a_wait_that_times_out_leaves_the_group_stream_readable() -> None:
    """A partner that never joins, or a silent speaker, times out a wait: the example's
    stream goes on (a timeout around the stream itself ended its generator for good)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("llm_leader_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)

    class Stream:  # what the hub's stream does: events as they come, until closed
        def __init__(self) -> None:
            self.fed: asyncio.Queue[Any] = asyncio.Queue()
            self.closed = False

        async def __aiter__(self) -> AsyncIterator[Any]:
            while True:
                yield await self.fed.get()

        def close(self) -> None:
            self.closed = True

    stream = Stream()
    heard = example.Heard(stream)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await heard.next()
    stream.fed.put_nowait("the next event")
    assert await heard.next() == "the next event"
    await heard.close()
    assert stream.closed
