"""One trace across processes (OpenTelemetry, OTLP/HTTP to a receiver in the test): a leader,
two partners, two hub replicas on one store and one Redis, and two group members, each a
process of its own configured only by the standard ``OTEL_*`` variables.

The leader's call spans are ancestors of each partner's server spans and of the hub's spans
for the records of those calls; a group post on replica A is one ``publish`` span, and each
member's delivery on replica B (one live, one replayed from SQL after it connected late) is
a ``process`` span linked to it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.demo.traces import otel_env
from tests.support.hub import empty_tables
from tests.support.live import LiveServer, interrupt
from tests.support.otlp import Received, Receiver
from tests.support.replicas import ROOT, Redis, Replica
from tests.support.system import require
from tests.support.waiting import eventually

WAIT_SECONDS = 120  # a hang bound


class Role:
    """One process of ``tests/support/traced.py``, read line by line."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.traced", *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    async def read(self) -> Any:
        assert self.proc.stdout is not None
        got = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), WAIT_SECONDS)
        if not got:
            assert self.proc.stderr is not None
            raise AssertionError(f"{self.proc.args} ended: {self.proc.stderr.read()[-3000:]}")
        return json.loads(got) if got.startswith("{") else got.strip()

    def tell(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    async def ends(self) -> None:
        code = await asyncio.wait_for(asyncio.to_thread(self.proc.wait), WAIT_SECONDS)
        assert self.proc.stderr is not None
        assert code == 0, self.proc.stderr.read()[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            interrupt(self.proc)


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[Receiver, str]]:
    found = Receiver()
    server = await LiveServer(found.app()).start()
    try:
        yield found, server.url
    finally:
        await server.stop()


def in_trace(spans: list[Received], trace_id: str) -> list[Received]:
    return [s for s in spans if s.trace_id == trace_id]


async def test_one_trace_from_the_leader_through_the_hub_to_every_partner_and_subscriber(
    database_url: str, tmp_path: Path, receiver: tuple[Receiver, str]
) -> None:
    require("redis-server", "redis-server")
    found, endpoint = receiver
    redis = Redis()
    await redis.start()
    key_file = tmp_path / "shared-signing-key.pem"
    replicas = [
        Replica(
            database_url=database_url,
            broker_url=redis.url,
            key_file=key_file,
            workdir=tmp_path,
            settings=otel_env(endpoint, name),
        )
        for name in ("hub-a", "hub-b")
    ]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AGENTHUB_", "OTEL_"))}
    base["PYTHONPATH"] = str(ROOT)
    roles: list[Role] = []

    def role(service: str, *args: str) -> Role:
        made = Role({**base, **otel_env(endpoint, service)}, *args)
        roles.append(made)
        return made

    a, b = replicas
    try:
        await a.start()  # the first one migrates and makes the shared key
        await b.start()
        partners = [role(f"traced-partner-{n}", "partner", a.url) for n in (1, 2)]
        served_at = [await p.read() for p in partners]
        partner_ids = [each["id"] for each in served_at]
        card = served_at[1]["url"] + ".well-known/agent-card.json"
        leader = role("traced-leader", "leader", a.url, *partner_ids, card)
        made = await leader.read()
        live = role("traced-member", "member", b.url, made["group"])
        late = role("traced-member", "member", b.url, made["group"], "--after")
        assert await live.read() == "ready" and await late.read() == "ready"
        leader.tell("post")
        seq = (await leader.read())["seq"]
        await leader.ends()
        delivered = await live.read()
        late.tell("go")
        replayed = await late.read()
        assert delivered["seq"] == replayed["seq"] == seq
        await live.ends()
        await late.ends()
    finally:
        for each in roles:
            each.stop()  # the partner flushes its spans as it stops, as the replicas do
        for replica in replicas:
            replica.stop()
        redis.stop()
        await empty_tables(database_url)

    def received(name: str, service: str) -> list[Received]:
        return found.named(name, service)

    await eventually(lambda: received("leader work", "traced-leader"), "the leader's spans")
    for n in (1, 2):
        partner = f"traced-partner-{n}"
        await eventually(lambda p=partner: received("aip.rpc", p), f"{partner}'s spans")
    await eventually(lambda: len(received("process " + made["group"], "traced-member")) == 2, "")
    (work,) = received("leader work", "traced-leader")
    assert made["trace"].split("-")[1] == work.trace_id
    trace = in_trace(found.spans, work.trace_id)
    rpcs = [s for s in trace if s.name == "aip.rpc"]  # the first tasks' (t-s is by stream)
    rpcs = [s for s in rpcs if s.attributes["aip.task.id"].startswith("t-traced-")]
    calls = [s for s in rpcs if s.service == "traced-leader"]
    assert len(calls) == 4 and all(s.kind == "CLIENT" for s in calls)  # start, complete, x2
    assert {s.attributes["aip.command"] for s in calls} == {"start", "complete"}
    assert all(s.attributes["gen_ai.conversation.id"] == made["session"] for s in calls)
    # each partner's server spans are under the leader's call spans
    served = [s for s in rpcs if s.service.startswith("traced-partner")]
    assert {s.service for s in served} == {"traced-partner-1", "traced-partner-2"}
    assert len(served) == 4
    for span in served:
        assert span.kind == "SERVER" and span.attributes["aip.task.id"].startswith("t-traced-")
        assert any(c.span_id in {p.span_id for p in found.ancestors(span)} for c in calls)
    assert {s.attributes.get("aip.task.state") for s in calls} == {
        "awaiting-completion",
        "completed",
    }
    # a stream's span at each end lasts as long as the stream; A2A's are named after the method
    (streams,) = [s for s in trace if s.name == "aip.stream" and s.service == "traced-leader"]
    (streamed,) = [s for s in trace if s.name == "aip.stream" and s.service == "traced-partner-1"]
    assert streams.kind == "CLIENT" and streamed.kind == "SERVER"
    assert streams.span_id in {p.span_id for p in found.ancestors(streamed)}
    assert streamed.attributes["aip.task.id"] == "t-s"
    assert streamed.attributes["aip.task.state"] == "awaiting-completion"  # its last event's
    # the A2A task: sent (a blocking start, streamed: the agent streams), then looked at
    for method in ("SendStreamingMessage", "GetTask"):
        (sent,) = [s for s in trace if s.name == method and s.service == "traced-leader"]
        (got,) = [s for s in trace if s.name == method and s.service == "traced-partner-2"]
        assert (sent.kind, got.kind) == ("CLIENT", "SERVER")
        assert sent.span_id in {p.span_id for p in found.ancestors(got)}
        assert got.attributes["gen_ai.agent.id"] == partner_ids[1]
        for name in ("a2a.method.name", "a2a.task.id", "a2a.task.state"):
            assert got.attributes[name] == sent.attributes[name]
        assert got.attributes["a2a.task.state"] == "TASK_STATE_COMPLETED"
        assert got.attributes["gen_ai.agent.name"] == "traced-partner"
    # the hub's spans for the call's records, the leader's and the partner's, under it too
    hub_spans = [s for s in trace if s.service == "hub-a"]
    call_ids = {c.span_id for c in calls}
    by_leader = [s for s in hub_spans if {p.span_id for p in found.ancestors(s)} & call_ids]
    assert by_leader, [(s.name, s.service) for s in hub_spans]
    for partner in ("traced-partner-1", "traced-partner-2"):  # each partner's records
        its = {x.span_id for x in served if x.service == partner}
        under = [s for s in hub_spans if {p.span_id for p in found.ancestors(s)} & its]
        assert under, (partner, [(s.name, s.service) for s in hub_spans])
    # the group post: one publish span at replica A, each delivery at B linked to it
    (posts,) = received("leader posts", "traced-leader")
    (publish,) = received("publish " + made["group"], "hub-a")
    assert publish.kind == "PRODUCER" and posts.span_id in {
        p.span_id for p in found.ancestors(publish)
    }
    assert delivered["trace"] == replayed["trace"]
    assert delivered["trace"].split("-")[1:3] == [publish.trace_id, publish.span_id]
    deliveries = received("process " + made["group"], "traced-member")
    for delivery in deliveries:
        assert delivery.kind == "CONSUMER"
        assert (publish.trace_id, publish.span_id) in delivery.links
        assert delivery.attributes["messaging.destination.name"] == made["group"]
    # no message body in any attribute
    assert not any("to everyone" in str(s.attributes) for s in found.spans)


async def test_an_agent_that_serves_nothing_traces_from_the_moment_it_is_made(
    receiver: tuple[Receiver, str],
) -> None:
    """A leader-only script (or a group member): ``OTEL_*`` set, an ``Agent`` made, no call to
    ``tracing``: its spans are exported, by ``Agent.aclose`` (the exporter's own schedule is
    set past the test's end, and the process is still up when the span arrives)."""
    found, endpoint = receiver
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AGENTHUB_", "OTEL_"))}
    env = {**base, "PYTHONPATH": str(ROOT), **otel_env(endpoint, "solo-leader")}
    env["OTEL_BSP_SCHEDULE_DELAY"] = str(3_600_000)
    solo = Role(env, "solo", "http://127.0.0.1:9")  # no hub is asked anything
    try:
        assert await solo.read() == {"on": True}
        assert await solo.read() == "closed"
        await eventually(lambda: found.named("solo work", "solo-leader"), "the solo span")
        solo.tell("end")
        await solo.ends()
    finally:
        solo.stop()
