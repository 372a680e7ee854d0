"""A leader that plans with a language model, as in the IoA paper: the model splits a goal into
sub-tasks, picks a partner found by discovery for each, and then, in a group whose speaking
policy is ``turns``, names who speaks next.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
    AGENTHUB_LLM_BASE_URL=http://127.0.0.1:11434/v1 AGENTHUB_LLM_MODEL=llama3.2 \\
    python examples/llm_leader.py "a one-page note on heat pumps"

The model is any OpenAI-compatible endpoint, set as for examples/llm_partner.py
(AGENTHUB_LLM_BASE_URL, AGENTHUB_LLM_MODEL, AGENTHUB_LLM_API_KEY, AGENTHUB_LLM_TIMEOUT_SECONDS).
With no model at hand, ``agenthub fake-model`` serves a stand-in whose answers follow from the
prompt (AGENTHUB_LLM_BASE_URL=http://127.0.0.1:8100/v1 AGENTHUB_LLM_MODEL=fake-model): the
leader and its partners then run end to end.
Its partners are any online agents (examples/llm_partner.py, examples/echo_partner.py); those
that take part in groups (llm_partner.py does) speak when the model names them. Optional:
LLM_LEADER_TURNS (speaking turns, default 3), LLM_LEADER_PORT (its endpoint, default 9004).
It registers a leader for the run and deregisters it on the way out. A missing setting is one
line and exit 2; a model or hub that fails is one line and exit 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import httpx

from agenthub import Agent, AgentKey, KitError, LLMConfig, LLMConfigError
from agenthub.events import EventStream, HubEvent
from agenthub.llm import ChatModel
from agenthub.protocol.agents import AgentCard

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
PORT = os.environ.get("LLM_LEADER_PORT", "9004")
GOAL = "a short note on why teams of agents need a hub"
CANDIDATES = 5  # partners offered to the model for each sub-task
JOIN_SECONDS = 20.0  # how long the leader waits for the invited partners to join its group
TURN_SECONDS = 60.0  # how long a named speaker holds the floor (a model may be slow)
SHOWN_CHARS = 160
HEARD = 4  # the last lines of the transcript a speaker is told
MAX_TURNS = 50


async def main(goal: str, turns: int) -> None:
    config = LLMConfig.from_env()  # before anything else: a missing setting is one line
    model = ChatModel(config)
    agent = Agent(HUB, key=AgentKey.generate(), public_url=f"https://127.0.0.1:{PORT}/")
    await agent.register(
        {"name": "llm-leader", "description": f"plans with the language model {config.model}"},
        registration_token=TOKEN,
    )
    try:
        async with agent.serving():
            await lead(agent, model, goal, turns)
    finally:
        with contextlib.suppress(Exception):
            await agent.hub.deregister()
        await model.aclose()


async def lead(agent: Agent, model: ChatModel, goal: str, turns: int) -> None:
    print(f"goal: {goal}", flush=True)
    steps = await model.plan(goal)
    for n, step in enumerate(steps, 1):
        print(f"plan {n}: {step}", flush=True)
    chosen = [await pick_partner(agent, model, step) for step in steps]
    partners = {card.id: card for card in chosen}
    lead = agent.leader
    # each partner takes tasks here (p2p) and speaks in the session's group
    receivers = [{"agentId": i, "mode": m} for i in partners for m in ("p2p", "group")]
    session = await lead.open_session(receivers, title="llm leader", goal=goal)
    results: list[str] = []
    for step, card in zip(steps, chosen, strict=True):
        # start, and accept the work once it awaits completion (a question is not answered)
        answer = await lead.run(card.id, session_id=session.id, text=step)
        text = " ".join(answer.text.split()) or "(no text)"
        if answer.state == "completed":
            results.append(f"{card.name}: {text}")
        print(f"task for {card.name}: {answer.state}: {short(text)}", flush=True)
    await discuss(agent, model, goal, session.id, partners, results, turns)
    await lead.close_session(session.id)


async def pick_partner(agent: Agent, model: ChatModel, step: str) -> AgentCard:
    """Discovery ranks the online agents for the sub-task; those with the skill "chat" (as
    examples/llm_partner.py has), then any other online agent, fill the list up (how many
    match the words of a sub-task depends on the store's search: the model should have a
    choice on every store); the model picks one of them."""
    ranked = (await agent.hub.list_agents(q=step, status="online")).items
    chat = (await agent.hub.list_agents(skill="chat", status="online")).items
    online = (await agent.hub.list_agents(status="online")).items
    found: list[AgentCard] = []
    for card in [*ranked, *chat, *online]:
        if card.id != agent.agent_id and all(card.id != seen.id for seen in found):
            found.append(card)
    found = found[:CANDIDATES]
    if not found:
        raise SystemExit(f"no online agent for {step!r}: start examples/llm_partner.py first")
    by_name = {card.name: card for card in reversed(found)}  # a shared name: the best ranked
    if len(by_name) == 1:
        return found[0]
    about = {name: card.description or "" for name, card in by_name.items()}
    name = await model.choose(f"Sub-task: {step}\nWhich agent should do it?", about)
    print(f"the model chose {name} for: {step}", flush=True)
    return by_name[name]


async def discuss(
    agent: Agent,
    model: ChatModel,
    goal: str,
    session_id: str,
    partners: dict[str, AgentCard],
    results: list[str],
    turns: int,
) -> None:
    """IoA's group chat: the model names each next speaker; under ``turns`` only they (and
    this leader, the group's owner) may post until they have."""
    groups = agent.hub.groups
    group = await groups.create(
        session_id,
        "llm leader's table",
        goal=goal,
        invite=list(partners),
        speaking_policy="turns",
        turn_timeout_seconds=TURN_SECONDS,
    )
    stream = groups.events(group.id)
    events = Heard(stream)
    try:
        members = await joined(events, set(partners))
        if not members:
            print("no partner joined the group (they take tasks only): no discussion", flush=True)
            return
        speakers = {partners[i].name: partners[i] for i in sorted(members)}
        transcript = list(results)
        for turn in range(1, turns + 1):
            question = (
                f"Goal: {goal}\nSo far:\n"
                + "\n".join(transcript or ["(nothing yet)"])
                + f"\nThis is turn {turn} of {turns}. Who should speak next?"
            )
            about = {name: card.description or "" for name, card in speakers.items()}
            name = await model.choose(question, about)
            speaker = speakers[name]
            heard = " ".join(f"[{short(line)}]" for line in transcript[-HEARD:])
            ask = (
                f"{name}, your turn. Goal: {goal}. So far: {heard or 'nothing'}. "
                "Add what is missing, in a few sentences."
            )
            await groups.post(
                group.id, ask, role="leader", mentions=[speaker.id], next_speaker=[speaker.id]
            )
            print(f"turn {turn}: the model gave the floor to {name}", flush=True)
            said = await spoken(events, speaker.id)
            transcript.append(f"{name}: {said}")
            print(f"  {name}: {short(said)}", flush=True)
        await groups.set_state(group.id, "conclusion")
        print("group concluded", flush=True)
    finally:
        await events.close()


class Heard:
    """The group's events, read by one task of their own into a queue: a wait that times out
    (a partner that never joins, a silent speaker) loses nothing, for a cancelled
    ``Queue.get`` leaves its item queued. A timeout around the stream itself would end it:
    the cancellation lands in its generator."""

    def __init__(self, stream: EventStream) -> None:
        self.stream = stream
        self.queue: asyncio.Queue[HubEvent | None] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for event in self.stream:
                self.queue.put_nowait(event)
        finally:
            self.queue.put_nowait(None)  # the end, for whoever waits

    async def next(self) -> HubEvent:
        event = await self.queue.get()
        if event is None:
            self.queue.put_nowait(None)
            if self.reader.done() and not self.reader.cancelled():
                self.reader.result()  # the stream's failure, raised here
            raise KitError("the group's event stream ended")
        return event

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader
        self.stream.close()


async def joined(events: Heard, invited: set[str]) -> set[str]:
    """The invited agents that joined within ``JOIN_SECONDS``."""
    active: set[str] = set()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(JOIN_SECONDS):
            while active != invited:
                event = await events.next()
                member = event.data.get("agentId")
                if (
                    event.kind == "member"
                    and member in invited
                    and event.data.get("state") == "active"
                ):
                    active.add(member)
    return active


async def spoken(events: Heard, speaker_id: str) -> str:
    """The next post of ``speaker_id`` (a silent speaker's turn times out at the hub, and
    here)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(TURN_SECONDS):
            while True:
                data = (await events.next()).data
                if data.get("type") == "message" and data.get("senderId") == speaker_id:
                    return " ".join(i.get("text", "") for i in data.get("dataItems") or [])
    return "(said nothing)"


def short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN_CHARS else flat[: SHOWN_CHARS - 1] + "…"


def run() -> int:
    goal = " ".join(sys.argv[1:]).strip() or os.environ.get("LLM_LEADER_GOAL") or GOAL
    turns = os.environ.get("LLM_LEADER_TURNS", "3")
    if not PORT.isdigit() or not 1 <= int(PORT) <= 65535:
        print(f"llm_leader: LLM_LEADER_PORT must be a port number, not {PORT!r}", file=sys.stderr)
        return 2
    if not turns.isdigit() or not 1 <= int(turns) <= MAX_TURNS:
        print(
            f"llm_leader: LLM_LEADER_TURNS must be 1 to {MAX_TURNS}, not {turns!r}", file=sys.stderr
        )
        return 2
    try:
        asyncio.run(main(goal, int(turns)))
    except LLMConfigError as exc:
        print(f"llm_leader: {exc}", file=sys.stderr)
        return 2
    except (KitError, httpx.HTTPError) as exc:
        print(f"llm_leader: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(run())
