"""What a partner keeps and holds for a task's leader is bounded."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
import pytest

import agenthub.endpoint
import agenthub.open_streams
from agenthub import Agent, CallFailed, TaskContext, TaskHandler
from agenthub.http_guard import ServerLimits
from agenthub.partner import MAX_EVENT_BYTES_PER_TASK, PartnerTask
from agenthub.protocol.messages import TaskCommand
from agenthub.runtime import MAX_TIMEOUT_SECONDS
from agenthub.signing import mint_call_token
from tests.support.kit import AskHandler, MakeLiveAgent
from tests.support.waiting import eventually


def start_command(task_id: str = "t-big") -> TaskCommand:
    return TaskCommand.model_validate(
        {
            "type": "task-command",
            "id": "c",
            "sentAt": "2026-12-01T00:00:00Z",
            "senderRole": "leader",
            "senderId": "leader",
            "sessionId": "s",
            "taskId": task_id,
            "command": "start",
        }
    )


async def test_a_task_keeps_at_most_its_bytes_of_events_and_always_the_newest() -> None:
    task = PartnerTask(start_command(), partner_id="p")
    megabyte = "z" * (1 << 20)
    for i in range(12):
        task._append({"type": "task-status-update", "n": i, "text": megabyte})
    kept = sum(len(event) for _, event in task.events)
    assert kept <= MAX_EVENT_BYTES_PER_TASK
    assert orjson.loads(task.events[-1][1])["n"] == 11 and orjson.loads(task.events[0][1])["n"] > 0


class Chatty(TaskHandler):
    """Streams many large progress reports before it asks for completion."""

    async def on_start(self, task: TaskContext) -> None:
        await task.working("starting")
        for i in range(200):
            await task.progress(f"{i} " + "p" * 50_000)
        await task.await_completion([{"id": "done", "dataItems": [{"type": "text", "text": "ok"}]}])


async def test_a_stream_whose_leader_reads_nothing_is_let_go(
    make_live_agent: MakeLiveAgent,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(agenthub.endpoint, "STREAM_SEND_TIMEOUT_SECONDS", 1.0)
    # plain HTTP: the test plays a leader that reads nothing on a raw socket
    leader: Agent = await make_live_agent("leader", https=False)
    partner: Agent = await make_live_agent("chatty", Chatty(), https=False)
    session = await leader.leader.open_session([partner.agent_id])
    command = leader.leader.command(
        "start", session_id=session.id, partner_id=partner.agent_id, task_id="t-stuck", text="go"
    ).to_wire()
    body = orjson.dumps(
        {"jsonrpc": "2.0", "id": "1", "method": "stream", "params": {"message": command}}
    )
    url = partner.public_url or ""
    call = mint_call_token(
        leader.key,
        caller_id=leader.agent_id,
        callee_id=partner.agent_id,
        method="POST",
        url=url,
        body=body,
    )
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n" % port
        + b"Authorization: Bearer "
        + call.token.encode()
        + b"\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(body)
        + body
    )
    await writer.drain()  # and then read nothing: 10 MB of events pile up at the partner
    caplog.set_level(logging.INFO, logger="agenthub.endpoint")
    try:
        await eventually(
            lambda: any("let go of a stream" in r.getMessage() for r in caplog.records),
            "the partner let go of the stream",
        )
    finally:
        writer.close()


async def test_a_task_let_go_takes_its_timeout_timer_with_it(
    make_live_agent: MakeLiveAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partner full of tasks lets go of long-idle ones; their start ``timeout`` timers
    go too (they kept every dropped task and its events alive, past MAX_TASKS). The idle
    limit is set low, not mocked: the same code path."""
    monkeypatch.setattr("agenthub.runtime.IDLE_TASK_SECONDS", 0.2)
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    runtime = partner.endpoint.runtime
    assert runtime is not None
    runtime.max_tasks = 1
    session = await leader.leader.open_session([partner.agent_id])
    params = {"timeout": 3_000_000}  # fifty minutes
    await leader.leader.start(
        partner.agent_id, session_id=session.id, task_id="t-1", text="x", params=params
    )
    first = runtime.task_of(leader.agent_id, "t-1")
    assert first is not None and first.timer is not None and not first.timer.done()
    await asyncio.sleep(0.3)  # idle past the limit
    await leader.leader.start(partner.agent_id, session_id=session.id, task_id="t-2", text="y")
    assert runtime.task_of(leader.agent_id, "t-1") is None  # let go
    await asyncio.sleep(0)
    assert first.timer is None or first.timer.done(), "the dropped task's timer still runs"
    second = runtime.task_of(leader.agent_id, "t-2")
    assert second is not None
    await runtime.aclose()  # and at shutdown, every task's
    assert all(t is None or t.done() for t in (second.runner, second.timer))


async def test_a_held_task_keeps_no_finished_handler(make_live_agent: MakeLiveAgent) -> None:
    """A task awaiting its leader is held (the most a busy partner holds): its handler's
    finished runner, with its coroutine, frame and context, is not held with it."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    runtime = partner.endpoint.runtime
    assert runtime is not None
    session = await leader.leader.open_session([partner.agent_id])
    await leader.leader.start(partner.agent_id, session_id=session.id, task_id="t-1", text="x")
    task = runtime.task_of(leader.agent_id, "t-1")
    assert task is not None and task.settled
    # the handler returns after its last move, then its runner goes
    await eventually(lambda: task.runner is None, "the settled task's runner gone")


async def test_a_held_task_keeps_its_history_and_events_as_json() -> None:
    """What a held task keeps of its past (events, both histories) is bytes, which no
    collection walks: a busy partner holds thousands of tasks awaiting their leaders, and
    its full collections grew with every dict, list and model they kept."""
    task = PartnerTask(start_command(), partner_id="p")
    ctx = TaskContext(task, task.last_command(), _keep_event)
    await ctx.working("echoing")
    await ctx.await_completion([{"id": "echo", "dataItems": [{"type": "text", "text": "x"}]}])
    kept = [e for _, e in task.events]
    kept += [s for _, s in task.status_history] + [c for _, _, c in task.command_history]
    assert len(kept) == 3 + 3 + 1 and all(type(k) is bytes for k in kept)
    answer = task.snapshot()  # ``get`` still answers it whole
    assert [s["state"] for s in orjson.loads(orjson.dumps(answer))["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
    ]


async def _keep_event(task: PartnerTask, event: dict[str, Any], record: bool) -> None:
    task._append(event)


async def test_a_wait_that_times_out_leaves_no_waiter_behind() -> None:
    task = PartnerTask(start_command(), partner_id="p")
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await task.wait_for(lambda: False)
    assert not task._waiters  # nothing a held task keeps for a wait that ended
    woken = asyncio.create_task(task.wait_for(lambda: task.next_seq > 1))
    await asyncio.sleep(0)
    task._append({"type": "task-status-update"})
    await asyncio.wait_for(woken, 60)
    assert task._waiters is None


async def test_a_start_timeout_past_its_limit_is_invalid_params(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A task waits for its leader at most as long as it may stay idle: a longer start
    ``timeout`` (AIP allows up to 2^63 ms) is refused, and nothing is kept for it."""
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    session = await leader.leader.open_session([partner.agent_id])
    too_long = {"timeout": int(MAX_TIMEOUT_SECONDS * 1000) + 1}
    with pytest.raises(CallFailed) as refused:
        await leader.leader.start(
            partner.agent_id, session_id=session.id, task_id="t-long", text="x", params=too_long
        )
    assert refused.value.code == -32602 and "timeout" in str(refused.value)
    runtime = partner.endpoint.runtime
    assert runtime is not None and runtime.task_of(leader.agent_id, "t-long") is None


async def test_a_task_keeps_its_start_and_only_its_newest_commands(
    make_live_agent: MakeLiveAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command is kept in the task's ``commandHistory``, the ignored ones too (a
    leader repeating ``complete`` too early grew it without end): past its limit (set low,
    not mocked: the same code path) the oldest after the start go."""
    monkeypatch.setattr("agenthub.partner.MAX_COMMANDS_PER_TASK", 4)
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])
    await lead.start(partner.agent_id, session_id=session.id, task_id="t-h", text="x")
    sent = []
    for _ in range(6):  # each ignored: the task awaits input
        early = lead.command("complete", session_id=session.id, task_id="t-h")
        await lead.send(partner.agent_id, early, record=False)
        sent.append(early.id)
    snapshot = await lead.get(partner.agent_id, session_id=session.id, task_id="t-h")
    history = snapshot["commandHistory"]
    assert [c["command"] for c in history] == ["start", "complete", "complete", "complete"]
    assert [c["id"] for c in history[1:]] == sent[-3:]


async def test_streams_open_at_once_are_bounded_per_leader_and_per_task(
    make_live_agent: MakeLiveAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream stays open until its task ends: a leader may hold only so many at a
    partner, and only so many of one task (the limits set low, not mocked: the same code
    path); past them a stream is a JSON-RPC error, and one closed makes room again."""
    monkeypatch.setattr(agenthub.open_streams, "MAX_STREAMS_PER_CALLER", 3)
    monkeypatch.setattr(agenthub.open_streams, "MAX_STREAMS_PER_TASK", 2)
    leader = await make_live_agent("leader")
    partner = await make_live_agent("partner", AskHandler())
    lead = leader.leader
    session = await lead.open_session([partner.agent_id])

    async def opened(name: str, task_id: str) -> Any:
        command = lead.command(
            name, session_id=session.id, partner_id=partner.agent_id, task_id=task_id, text="x"
        )
        events = lead.stream(partner.agent_id, command, follow=True, record=False)
        await anext(events)
        return events

    held = [await opened("start", "t-a"), await opened("start", "t-a")]  # a retry: two
    try:
        with pytest.raises(CallFailed) as refused:
            held.append(await opened("start", "t-a"))
        assert refused.value.code == -32004 and refused.value.data == {"limit": 2}
        held.append(await opened("start", "t-b"))
        with pytest.raises(CallFailed) as refused:
            held.append(await opened("start", "t-c"))
        assert refused.value.code == -32004 and refused.value.data == {"limit": 3}
        await held.pop().aclose()

        async def reopened() -> bool:  # once the partner sees the stream closed
            try:
                held.append(await opened("start", "t-c"))
            except CallFailed:
                return False
            return True

        await eventually(reopened, "a stream opened in the closed one's place")
        assert len(held) == 3
    finally:
        for events in held:
            await events.aclose()


async def _said(port: int, data: bytes) -> bytes:
    """Send ``data`` raw, then read until the endpoint closes: what it said. The read's
    bound only keeps a broken endpoint from hanging the run (it held such connections for
    good): that it answered and closed is what shows it cut them off."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 60)
    finally:
        writer.close()


async def test_an_endpoint_cuts_off_slow_and_oversized_requests(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A partner's endpoint has the hub's limits on connections nobody authenticated yet:
    headers that stop halfway and bodies that stall are 408 and closed (the deadlines made
    short here by the agent's ``limits``), headers too large 431, many at once."""
    limits = ServerLimits(header_timeout_seconds=0.5, body_timeout_seconds=0.5)
    partner = await make_live_agent("guarded", AskHandler(), https=False, limits=limits)
    assert partner.public_url is not None
    port = int(partner.public_url.rsplit(":", 1)[1].strip("/"))
    stalled = b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: "
    answers = await asyncio.gather(*(_said(port, stalled) for _ in range(50)))
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), {a[:40] for a in answers}
    half_body = b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"jsonrpc":'
    assert (await _said(port, half_body)).startswith(b"HTTP/1.1 408")
    big = b"POST / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    assert (await _said(port, big)).startswith(b"HTTP/1.1 431")
    # an ordinary request is untouched
    answer = await _said(
        port, b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 "), answer[:100]
    assert not answer.startswith((b"HTTP/1.1 408", b"HTTP/1.1 431"))


async def test_leaders_holding_the_most_tasks_cannot_fill_the_partner_for_the_others(
    make_live_agent: MakeLiveAgent,
) -> None:
    """A partner full of two leaders' tasks still serves a third: a leader holding fewer
    tasks takes the room of the stalest task of the leader holding the most, and that one,
    starting more, is refused with a clear error (the caps made small, the same code)."""
    hog, other, late = [await make_live_agent(name) for name in ("hog", "other", "late")]
    partner = await make_live_agent("partner", AskHandler())
    runtime = partner.endpoint.runtime
    assert runtime is not None
    runtime.max_tasks, runtime.max_tasks_per_caller = 4, 3
    sessions = {}
    for leader in (hog, other, late):
        sessions[leader] = (await leader.leader.open_session([partner.agent_id])).id

    async def start(leader: Agent, task_id: str) -> None:
        await leader.leader.start(
            partner.agent_id, session_id=sessions[leader], task_id=task_id, text="x"
        )

    for n in range(3):
        await start(hog, f"h-{n}")
    await start(other, "o-0")  # the partner is full: 4 tasks
    await start(late, "l-0")  # served: the hog's stalest task made room
    assert runtime.task_of(hog.agent_id, "h-0") is None
    assert [runtime.task_of(hog.agent_id, f"h-{n}") is not None for n in (1, 2)] == [True, True]
    assert runtime.task_of(late.agent_id, "l-0") is not None
    with pytest.raises(CallFailed) as refused:  # the hog holds the most: refused
        await start(hog, "h-3")
    assert "as many as any leader here" in str(refused.value), refused.value
    assert len(runtime.tasks) == 4 and runtime.task_of(hog.agent_id, "h-3") is None
