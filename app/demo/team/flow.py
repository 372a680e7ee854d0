"""The leader's IoA flow-control step: speaker selection under a ``turns`` policy, a silent
speaker that does not stall the group, and a conversation state that refuses a post.

The members answer a message that mentions them (``app.demo.team.worker.follow_group``); the
hub decides whether they may speak, and each says what it was told.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from agenthub import Agent
from agenthub.events import HubEvent
from app.demo.team.common import say, text_of, until_active

Events = AsyncGenerator[HubEvent, None]
TURN_SECONDS = 3.0  # how long a named speaker holds the floor before it opens again
SETTLE_SECONDS = 0.5  # time for a mentioned member's answer (accepted or refused) to arrive
STEP_SECONDS = 60.0  # the whole step; a wait that never ends fails the demo instead


async def _next(events: Events, kind: str, **where: Any) -> dict[str, Any]:
    """The next event of ``kind`` whose data holds ``where``."""
    async for event in events:
        if event.kind == kind and all(event.data.get(k) == v for k, v in where.items()):
            return dict(event.data)
    raise RuntimeError(f"the group stream ended before a {kind} event")


async def _message_from(events: Events, sender: str) -> str:
    async for event in events:
        if event.data.get("type") == "message" and event.data.get("senderId") == sender:
            return text_of(event.data)
    raise RuntimeError(f"the group stream ended before {sender} spoke")


async def _result_of(events: Events, task_id: str) -> dict[str, Any]:
    async for event in events:
        data = event.data
        ours = data.get("type") == "task-result" and data.get("taskId") == task_id
        if ours and data["status"]["state"] == "awaiting-completion":
            return dict(data)
    raise RuntimeError(f"the group stream ended before task {task_id} had its result")


async def speaker_selection(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    """IoA's ``next_speaker``, enforced by the group's ``turns`` policy, with a timeout; then
    ``sync-task-assignment``, where a member without a task may not speak."""
    groups = agent.hub.groups
    first, second = team["factorial"], team["root"]
    group = await groups.create(
        session_id,
        "review panel",
        goal="check the maths, one at a time",
        invite=[first, second],
        speaking_policy="turns",
        turn_timeout_seconds=TURN_SECONDS,
    )
    say("leader", "formed a panel that speaks in turns", groupId=group.id, timeout=TURN_SECONDS)
    stream = groups.events(group.id)
    # one iteration of the stream, read on by each wait below: a new ``async for`` over the
    # stream would open another connection each time, and leave the last one open
    events = aiter(stream)
    try:
        async with asyncio.timeout(STEP_SECONDS):  # a wait that never ends is a failure
            result = await _panel(agent, group.id, events, first, second)
    finally:
        stream.close()
        await events.aclose()
    return {"panel": text_of(result)}


async def _panel(
    agent: Agent, group_id: str, events: Events, first: str, second: str
) -> dict[str, Any]:
    groups = agent.hub.groups
    await until_active(agent, group_id, [first, second])
    await groups.post(
        group_id, "Root, wait: factorial speaks first.", mentions=[second], next_speaker=[first]
    )
    say("leader", "gave the floor to the factorial agent (next speaker)", floor=[first])
    opened = await _next(events, "floor", reason="timeout")
    say("leader", "the silent speaker's turn timed out; the floor is open", at=opened["at"])
    await groups.post(group_id, "Root, go ahead.", mentions=[second], next_speaker=[second])
    said = await _message_from(events, second)
    say("leader", "the named speaker spoke in its turn", text=said)

    await groups.set_state(group_id, "sync-task-assignment")
    task_id = await groups.assign(group_id, first, "factorial of 5")
    await groups.post(group_id, "Root, anything to add?", mentions=[second])
    say(
        "leader",
        "assigned a task; only its assignee may speak now",
        taskId=task_id,
        record="start",
    )
    result = await _result_of(events, task_id)
    await groups.command(group_id, task_id, "complete")
    await asyncio.sleep(SETTLE_SECONDS)
    await groups.set_state(group_id, "conclusion")
    say("leader", "concluded the panel", groupId=group_id, result=text_of(result))
    return result
