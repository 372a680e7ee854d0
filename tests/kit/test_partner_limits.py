"""What a partner keeps and holds for a task's leader is bounded."""

from __future__ import annotations

import asyncio
import logging

import orjson
import pytest

import agenthub.endpoint
from agenthub import Agent, TaskContext, TaskHandler
from agenthub.partner import MAX_EVENT_BYTES_PER_TASK, PartnerTask
from agenthub.protocol.messages import TaskCommand
from agenthub.signing import mint_call_token
from tests.support.kit import MakeLiveAgent


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
        await task._append({"type": "task-status-update", "n": i, "text": megabyte})
    kept = sum(len(orjson.dumps(event)) for _, event in task.events)
    assert kept <= MAX_EVENT_BYTES_PER_TASK
    assert task.events[-1][1]["n"] == 11 and task.events[0][1]["n"] > 0


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
        for _ in range(100):
            if any("let go of a stream" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.1)
        assert any("let go of a stream" in r.getMessage() for r in caplog.records)
    finally:
        writer.close()
