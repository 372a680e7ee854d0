"""The recorder keeps the hub off the call path, up to a bounded backlog per session."""

from __future__ import annotations

import asyncio

from agenthub import AgentKey, HubClient
from agenthub.recorder import HubRecorder
from tests.support.live import free_port
from tests.support.messages import chat


async def test_callers_wait_only_once_a_sessions_backlog_is_full() -> None:
    unreachable = HubClient(
        f"http://127.0.0.1:{free_port()}", key=AgentKey.generate(), agent_id="agt-rec"
    )
    recorder = HubRecorder(unreachable, retry_deadline_seconds=30, max_backlog=3)
    try:
        for i in range(2):
            recorder.record("full", chat("agt-rec", f"m{i}"))
            await asyncio.wait_for(recorder.admit("full", 10), 1)  # under the bound: at once
        recorder.record("full", chat("agt-rec", "m2"))
        recorder.record("other", chat("agt-rec", "o0"))
        waiting = asyncio.create_task(recorder.admit("full", 10))
        await asyncio.sleep(0.3)
        assert not waiting.done(), "a full backlog let the caller through"
        await asyncio.wait_for(recorder.admit("other", 10), 1)  # other sessions are not held
        waiting.cancel()
        assert recorder.recorded == 0
    finally:
        await recorder.aclose(timeout=0.1)
        await unreachable.aclose()
