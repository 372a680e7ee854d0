"""GB/Z 185.6 Annex B patterns end to end: kit leaders and partners over a live hub."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agenthub import (
    Agent,
    AllDeclined,
    FanOutFailed,
    KitError,
    Subscribed,
    TaskContext,
    TaskHandler,
    Trigger,
    fan_out,
    negotiate,
    start_when,
    subscribe,
    triggers,
)
from tests.support.kit import (
    AskHandler,
    EchoHandler,
    LiveHub,
    MakeLiveAgent,
    hub_task,
    settled,
)
from tests.support.live import free_port, serving
from tests.support.waiting import eventually


class Skilled(TaskHandler):
    """Takes only a task that asks for its skill; hands any other back (rejects it)."""

    def __init__(self, skill: str) -> None:
        self.skill = skill
        self.offered: list[str] = []

    async def on_start(self, task: TaskContext) -> None:
        self.offered.append(task.task_id)
        if self.skill not in task.text:
            await task.reject(f"I only do {self.skill}")
            return
        answer = [{"type": "text", "text": f"{self.skill} done: {task.text}"}]
        await task.await_completion([{"id": "answer", "dataItems": answer}])


class Broken(TaskHandler):
    async def on_start(self, task: TaskContext) -> None:
        await task.working()
        raise RuntimeError("out of ink")


class Rendezvous(TaskHandler):
    """Answers only once ``count`` tasks are running at the same time: sub-tasks sent one
    after another never meet, and are rejected."""

    def __init__(self, count: int) -> None:
        self.count, self.arrived = count, 0
        self.all_here = asyncio.Event()

    async def on_start(self, task: TaskContext) -> None:
        self.arrived += 1
        if self.arrived == self.count:
            self.all_here.set()
        try:
            await asyncio.wait_for(self.all_here.wait(), 5)
        except TimeoutError:
            await task.reject("nobody else came")
            return
        await task.await_completion([{"id": "met", "dataItems": [{"type": "text", "text": "met"}]}])


class Drafter(TaskHandler):
    """Adds a draft product, then asks a question: a task that is far from completed."""

    async def on_start(self, task: TaskContext) -> None:
        draft = [{"type": "text", "text": "first draft"}]
        await task.add_product({"id": "draft", "dataItems": draft})
        await task.await_input("is the draft good?")


async def team(
    make: MakeLiveAgent, **handlers: TaskHandler | None
) -> tuple[Agent, dict[str, Agent]]:
    """A leader and named partners (None: registered, never served, and the leader calls it
    at a port nobody listens on, so the call is refused)."""
    leader = await make("leader")
    partners = {}
    for name, handler in handlers.items():
        partners[name] = await make(name, handler, serve=handler is not None)
        if handler is None:
            leader.leader.endpoints[partners[name].agent_id] = f"https://127.0.0.1:{free_port()}/"
    return leader, partners


async def test_fan_out_gathers_every_result_and_reports_failures_beside_them(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader, p = await team(
        make_live_agent, one=EchoHandler(), two=EchoHandler(), broken=Broken(), away=None
    )
    ids = {name: a.agent_id for name, a in p.items()}
    session = await leader.leader.open_session(list(ids.values()))
    plan = await leader.leader.start(
        ids["one"], session_id=session.id, text="plan", task_id="t-plan"
    )
    await leader.leader.complete(ids["one"], session_id=session.id, task_id=plan["taskId"])
    subtasks = {ids["one"]: "alpha", ids["two"]: "beta", ids["broken"]: "x", ids["away"]: "y"}
    gathered = await fan_out(leader.leader, session.id, subtasks, parent_task_id="t-plan")

    assert list(gathered) == list(subtasks)
    assert {o.partner_id for o in gathered.succeeded.values()} == {ids["one"], ids["two"]}
    assert [gathered[ids[n]].state for n in ("one", "two", "broken")] == [
        "completed",
        "completed",
        "failed",
    ]
    assert "out of ink" in gathered[ids["broken"]].reason
    assert gathered[ids["away"]].state is None and "ConnectError" in str(
        gathered[ids["away"]].error
    )
    assert gathered.fuse(require_all=False) == "alpha\nbeta"
    with pytest.raises(FanOutFailed) as failed:
        gathered.fuse()
    assert set(failed.value.failed) == {ids["broken"], ids["away"]}
    await settled(leader, *p.values())
    task_ids = {o.task_id for o in gathered.values()}
    assert len(task_ids) == 4 and "t-plan" not in task_ids
    for name in ("one", "two", "broken"):
        record = await hub_task(leader, gathered[ids[name]].task_id)
        assert record["parentTaskId"] == "t-plan"
        assert record["partnerId"] == ids[name]
        assert record["state"] == gathered[ids[name]].state


async def test_fan_out_sends_the_subtasks_at_the_same_time(make_live_agent: MakeLiveAgent) -> None:
    meet = Rendezvous(3)
    leader, p = await team(make_live_agent, a=meet, b=meet, c=meet)
    session = await leader.leader.open_session([a.agent_id for a in p.values()])
    gathered = await fan_out(leader.leader, session.id, {a.agent_id: "meet" for a in p.values()})
    assert [o.text for o in gathered.values()] == ["met", "met", "met"]


async def test_fan_out_one_after_another_feeds_each_step_and_records_its_dependencies(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader, p = await team(make_live_agent, first=EchoHandler(), second=EchoHandler())
    first, second = p["first"].agent_id, p["second"].agent_id
    session = await leader.leader.open_session([a.agent_id for a in p.values()])
    steps = {first: "9", second: lambda got: f"root of {got[first].text}"}
    gathered = await fan_out(leader.leader, session.id, steps, concurrent=False)
    assert gathered.fuse() == "9\nroot of 9"
    await settled(leader, *p.values())
    record = await hub_task(leader, gathered[second].task_id)
    assert record["dependencies"] == [gathered[first].task_id]
    assert (await hub_task(leader, gathered[first].task_id))["dependencies"] == []


async def test_fan_out_refuses_a_step_of_earlier_outcomes_when_concurrent(
    make_live_agent: MakeLiveAgent,
) -> None:
    echo = EchoHandler()
    leader, p = await team(make_live_agent, one=echo)
    session = await leader.leader.open_session([p["one"].agent_id])
    with pytest.raises(KitError, match="one after another"):
        await fan_out(leader.leader, session.id, {p["one"].agent_id: lambda got: "late"})
    await settled(leader)
    response = await leader.hub.request("GET", f"/v1/sessions/{session.id}/messages")
    assert response.json()["items"] == []


async def test_negotiate_offers_a_rejected_task_to_the_next_candidate(
    make_live_agent: MakeLiveAgent,
) -> None:
    charts, writer, spare = Skilled("chart"), Skilled("report"), Skilled("report")
    leader, p = await team(make_live_agent, charts=charts, away=None, writer=writer, spare=spare)
    ids = [a.agent_id for a in p.values()]
    session = await leader.leader.open_session(ids)
    deal = await negotiate(leader.leader, session.id, ids, "a report on EVs")

    assert deal.partner_id == p["writer"].agent_id
    assert deal.outcome.state == "completed"
    assert deal.outcome.text == "report done: a report on EVs"
    assert [(o.partner_id, o.state) for o in deal.declined] == [
        (p["charts"].agent_id, "rejected"),
        (p["away"].agent_id, None),
    ]
    assert deal.declined[0].reason == "I only do chart"
    assert spare.offered == []  # the first taker ends the round
    await settled(leader, *p.values())
    refused = await hub_task(leader, deal.declined[0].task_id)
    taken = await hub_task(leader, deal.outcome.task_id)
    assert (refused["partnerId"], refused["state"]) == (p["charts"].agent_id, "rejected")
    assert (taken["partnerId"], taken["state"]) == (p["writer"].agent_id, "completed")
    assert refused["id"] != taken["id"]


async def test_negotiate_raises_all_declined_naming_each_candidate(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader, p = await team(make_live_agent, charts=Skilled("chart"), broken=Broken())
    ids = [a.agent_id for a in p.values()]
    session = await leader.leader.open_session(ids)
    with pytest.raises(AllDeclined) as declined:
        await negotiate(leader.leader, session.id, ids, "a report")
    assert [(o.partner_id, o.state) for o in declined.value.declined] == [
        (ids[0], "rejected"),
        (ids[1], "failed"),
    ]
    assert "I only do chart" in str(declined.value) and "out of ink" in str(declined.value)


async def test_subscribe_starts_a_task_when_a_watched_task_holds_a_product(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader, p = await team(make_live_agent, drafter=Drafter(), echo=EchoHandler())
    drafter, echo = p["drafter"].agent_id, p["echo"].agent_id
    session = await leader.leader.open_session([drafter, echo])
    lead = leader.leader

    async def then(record: dict[str, Any] | None) -> dict[str, Any]:
        assert record is not None
        draft = record["products"][0]["dataItems"][0]["text"]
        return await lead.start(echo, session_id=session.id, text=f"review: {draft}")

    when = Trigger.on_task("t-draft", states={"awaiting-input"}, product_id="draft")
    subscription = subscribe(lead, when, then, session_id=session.id, timeout=60)
    await asyncio.sleep(0.6)  # the watched task does not exist yet: nothing fires
    assert not subscription.done()
    await lead.start(drafter, session_id=session.id, text="draft it", task_id="t-draft")
    review = await subscription
    assert review["products"][0]["dataItems"][0]["text"] == "review: first draft"
    watched = await hub_task(leader, "t-draft")
    assert watched["state"] == "awaiting-input"  # a trigger, not the watched task's end


async def test_subscribe_fires_at_a_time_and_a_cancelled_one_never(
    make_live_agent: MakeLiveAgent,
) -> None:
    leader = await make_live_agent("leader")
    ran: list[float] = []

    async def then(record: dict[str, Any] | None) -> None:
        ran.append(time.monotonic())

    began = time.monotonic()
    fired = subscribe(leader.leader, Trigger.after(0.5), then)
    cancelled = subscribe(leader.leader, Trigger.after(0.6), then)
    cancelled.cancel()
    await fired
    await asyncio.sleep(0.3)
    assert len(ran) == 1 and ran[0] - began >= 0.5
    assert cancelled.cancelled()


async def test_a_subscribed_partner_accepts_at_once_and_works_when_its_trigger_fires(
    make_live_agent: MakeLiveAgent,
) -> None:
    waiter = Subscribed(EchoHandler())
    leader, p = await team(make_live_agent, waiter=waiter, gate=EchoHandler())
    waiter.hub = p["waiter"].hub
    b, gate = p["waiter"].agent_id, p["gate"].agent_id
    session = await leader.leader.open_session([b, gate])
    lead = leader.leader
    when = Trigger.on_task("t-gate", states={"completed"})
    answer = asyncio.create_task(
        start_when(lead, b, when, session_id=session.id, text="after the gate", task_id="t-b")
    )

    async def moved() -> Any:
        response = await leader.hub.request("GET", "/v1/tasks/t-b")
        moving = response.status_code == 200 and response.json()["state"] != "submitted"
        return response if moving else None

    # B's record: accepted (once B saw the session), waiting
    response = await eventually(moved, "task t-b moved past submitted")
    assert response.json()["state"] == "accepted"
    assert "waiting for task t-gate" in response.json()["status"]["dataItems"][0]["text"]
    assert not answer.done()
    opened = await lead.start(gate, session_id=session.id, text="open", task_id="t-gate")
    await lead.complete(gate, session_id=session.id, task_id=opened["taskId"])
    result = await asyncio.wait_for(answer, 60)
    assert result["status"]["state"] == "awaiting-completion"
    assert result["products"][0]["dataItems"][0]["text"] == "after the gate"
    await lead.complete(b, session_id=session.id, task_id="t-b")
    await settled(leader, *p.values())
    states = [s["state"] for s in (await hub_task(leader, "t-b"))["statusHistory"]]
    assert states == ["accepted", "working", "awaiting-completion", "completed"]


async def test_a_subscribed_partner_waits_for_a_time_and_refuses_a_trigger_it_cannot_read(
    make_live_agent: MakeLiveAgent,
) -> None:
    waiter = Subscribed(EchoHandler())
    leader, p = await team(make_live_agent, waiter=waiter)
    b = p["waiter"].agent_id
    session = await leader.leader.open_session([b])
    began = time.monotonic()
    timed = await start_when(leader.leader, b, Trigger.after(0.5), session_id=session.id, text="hi")
    assert timed["status"]["state"] == "awaiting-completion"
    assert time.monotonic() - began >= 0.5
    bad = {"trigger": {"taskId": "t-x"}}  # no condition on the task
    refused = await leader.leader.start(b, session_id=session.id, text="hi", params=bad)
    assert refused["status"]["state"] == "rejected"
    assert "not one this agent knows" in refused["status"]["dataItems"][0]["text"]
    plain = await leader.leader.start(b, session_id=session.id, text="now")  # no trigger
    assert plain["products"][0]["dataItems"][0]["text"] == "now"


def test_a_trigger_travels_as_data_but_a_test_stays_with_its_leader() -> None:
    for trigger in (
        Trigger.after(5),
        Trigger.on_task("t-1", states={"working", "completed"}, product_id="draft"),
    ):
        assert Trigger.from_wire(trigger.to_wire()) == trigger
    with pytest.raises(KitError):
        Trigger.on_task("t-1", test=lambda record: True).to_wire()
    with pytest.raises(ValueError, match="one of the two"):
        Trigger()
    assert Trigger.on_task("t", states={"working"}).matches({"state": "working"})
    assert not Trigger.on_task("t", product_id="p").matches({"state": "working", "products": []})


async def test_a_subscribed_partner_fails_a_task_whose_trigger_never_fires(
    make_live_agent: MakeLiveAgent,
) -> None:
    waiter = Subscribed(EchoHandler())
    leader, p = await team(make_live_agent, waiter=waiter)
    waiter.hub, waiter.max_wait_seconds = p["waiter"].hub, 0.5
    b = p["waiter"].agent_id
    session = await leader.leader.open_session([b])
    never = Trigger.on_task("t-never", states={"completed"})
    answer = await start_when(leader.leader, b, never, session_id=session.id, text="hi")
    assert answer["status"]["state"] == "failed"
    assert "did not fire within" in answer["status"]["dataItems"][0]["text"]
    assert "products" not in answer or not answer["products"]  # the work never ran


async def test_a_subscribed_partner_rejects_a_trigger_in_a_session_not_its_leaders(
    make_live_agent: MakeLiveAgent,
) -> None:
    """Leader A has no part in B's session (the hub shows A nothing of it): a start from A
    naming B's session, with a trigger on B's task, must not make the partner read that
    task for A (A's task would move on when B's does)."""
    waiter = Subscribed(EchoHandler())
    a = await make_live_agent("leader-a")
    b = await make_live_agent("leader-b")
    p = await make_live_agent("partner", waiter)
    waiter.hub = p.hub
    secret = await b.leader.open_session([p.agent_id])
    await b.leader.start(p.agent_id, session_id=secret.id, task_id="t-secret", text="x")
    await settled(b, p)
    assert (await a.hub.request("GET", "/v1/tasks/t-secret")).status_code == 404  # A may not
    trigger = Trigger.on_task("t-secret", states={"awaiting-completion"})
    spy = a.leader.command(
        "start",
        session_id=secret.id,
        partner_id=p.agent_id,
        task_id="t-spy",
        text="y",
        params={"trigger": trigger.to_wire()},
    )
    answer = await a.leader.send(p.agent_id, spy, record=False)
    assert answer["status"]["state"] == "rejected"
    assert "not this leader's" in answer["status"]["dataItems"][0]["text"]
    nowhere = spy.model_copy(update={"session_id": None, "task_id": "t-nowhere"})
    refused = await a.leader.send(p.agent_id, nowhere, record=False)
    assert refused["status"]["state"] == "rejected"
    assert "needs the start's session" in refused["status"]["dataItems"][0]["text"]


async def test_a_watch_reads_ever_less_often_and_fails_on_a_task_that_never_appears(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(triggers, "MAX_MISSING_READS", 6)
    leader = await make_live_agent("leader")
    session = await leader.leader.open_session([])
    before = await live_hub.answered(404, "/v1/tasks/{taskId}")
    began = time.monotonic()
    never = Trigger.on_task("t-never", states={"completed"})
    with pytest.raises(triggers.WatchedTaskMissing):
        await never.wait(leader.hub, session_id=session.id, poll_seconds=0.05, timeout=60)
    assert time.monotonic() - began >= 0.05 + 0.1 + 0.2 + 0.4 + 0.8  # doubling pauses
    assert await live_hub.answered(404, "/v1/tasks/{taskId}") - before == 6


async def test_a_subscribed_partner_rejects_a_start_past_its_watches(
    make_live_agent: MakeLiveAgent,
) -> None:
    waiter = Subscribed(EchoHandler(), max_watches=1)
    leader, p = await team(make_live_agent, waiter=waiter)
    b = p["waiter"].agent_id
    session = await leader.leader.open_session([b])
    lead = leader.leader
    # the first start's watch must still be on when the second arrives: on a loaded machine
    # a 1.5 s trigger could pass before the second start was even sent
    first = asyncio.create_task(
        start_when(lead, b, Trigger.after(8), session_id=session.id, text="first")
    )
    await eventually(lambda: waiter.watching, "the first start's watch began")
    assert waiter.watching == 1
    over = await start_when(lead, b, Trigger.after(0.1), session_id=session.id, text="second")
    assert over["status"]["state"] == "rejected"
    assert "wait for their trigger here" in over["status"]["dataItems"][0]["text"]
    assert (await first)["status"]["state"] == "awaiting-completion"
    assert waiter.watching == 0
    again = await start_when(lead, b, Trigger.after(0.1), session_id=session.id, text="third")
    assert again["status"]["state"] == "awaiting-completion"


class NoJson:
    """A peer (not the kit) that takes every rpc and answers 200 with a body that is no
    JSON; it keeps the commands it got."""

    def __init__(self) -> None:
        self.got: list[tuple[str, str]] = []
        self.app = Starlette(routes=[Route("/", self.rpc, methods=["POST"])])

    async def rpc(self, request: Request) -> Response:
        command = (await request.json())["params"]["command"]
        self.got.append((command["command"], command["taskId"]))
        return Response(b"<html>ok</html>", media_type="text/html")


async def plain_team(
    make: MakeLiveAgent, odd_url: str, **handlers: TaskHandler
) -> tuple[Agent, dict[str, Agent]]:
    """A leader over plain http that checks no answer's signature (as with a peer that
    signs none), the odd one (registered, served by ``odd_url``) and kit partners."""
    leader = await make("leader", https=False, verify_answers=False)
    partners = {"odd": await make("odd", serve=False, https=False)}
    leader.leader.endpoints[partners["odd"].agent_id] = odd_url
    for name, handler in handlers.items():
        partners[name] = await make(name, handler, https=False)
    return leader, partners


async def test_negotiate_cancels_an_offer_whose_answer_was_lost_before_the_next(
    make_live_agent: MakeLiveAgent,
) -> None:
    odd = NoJson()
    async with serving(odd.app) as peer:
        leader, p = await plain_team(make_live_agent, f"{peer.url}/", writer=Skilled("report"))
        ids = [a.agent_id for a in p.values()]
        session = await leader.leader.open_session(ids)
        deal = await negotiate(leader.leader, session.id, ids, "a report on EVs")
    assert deal.partner_id == p["writer"].agent_id and deal.outcome.state == "completed"
    (lost,) = deal.declined
    assert lost.state is None and "JSONDecodeError" in str(lost.error)
    assert odd.got == [("start", lost.task_id), ("cancel", lost.task_id)]


async def test_fan_out_cancels_what_it_leaves_and_survives_an_answer_that_is_no_json(
    make_live_agent: MakeLiveAgent,
) -> None:
    odd = NoJson()
    async with serving(odd.app) as peer:
        leader, p = await plain_team(
            make_live_agent, f"{peer.url}/", asker=AskHandler(), echo=EchoHandler()
        )
        ids = {name: a.agent_id for name, a in p.items()}
        session = await leader.leader.open_session(list(ids.values()))
        subtasks = {ids["odd"]: "x", ids["asker"]: "y", ids["echo"]: "z"}
        gathered = await fan_out(leader.leader, session.id, subtasks)
    assert "JSONDecodeError" in str(gathered[ids["odd"]].error)
    assert gathered[ids["echo"]].state == "completed"
    asked = gathered[ids["asker"]]
    assert asked.state == "canceled" and asked.reason == "what should I echo?"
    await settled(leader, p["asker"])
    assert (await hub_task(leader, asked.task_id))["state"] == "canceled"
