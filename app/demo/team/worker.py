"""A team member: takes group tasks from its inbox and point-to-point calls at its endpoint.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
        python -m app.demo.team.worker --role factorial --port 9101

It accepts every group invitation, answers each task it is given with its role's skill, and
the writer forms a sub-team of its own (a sub-group with the charts agent) for its part. A
point-to-point call may wait for a trigger first, or be handed back (GB/Z Annex B).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any

from agenthub import Agent, HubRequestError, Subscribed, TaskContext, TaskHandler
from app.demo.team.common import join_hub, leave_hub, run, say, text_of

Work = Callable[[Agent, dict[str, Any], str], Awaitable[str]]


async def factorial(_: Agent, __: dict[str, Any], text: str) -> str:
    return str(math.factorial(int(re.findall(r"\d+", text)[-1])))


async def square_root(_: Agent, __: dict[str, Any], text: str) -> str:
    number = float(re.findall(r"[\d.]+", text)[-1])
    return f"{math.sqrt(number):.4f}"


async def research(_: Agent, __: dict[str, Any], text: str) -> str:
    return "EV sales 2026: 17.1M units (+21%); BYD 22% share, Tesla 11%, VW group 7%"


async def analyse(_: Agent, __: dict[str, Any], text: str) -> str:
    return "growth led by China and Europe; a price war compresses margins; watch batteries"


async def chart(_: Agent, __: dict[str, Any], text: str) -> str:
    return "units 2022-2026: 10.5 ▅ 13.6 ▆ 14.1 ▆ 17.1 █ (millions)"


async def write(agent: Agent, command: dict[str, Any], text: str) -> str:
    """The writer's part needs a chart: it forms a sub-team for it, then writes."""
    group_id = command["groupId"]
    found = (await agent.hub.list_agents(q="chart")).items
    helper = found[0].id
    say("writer", "found a collaborator by capability", query="chart", name=found[0].name)
    session_id = (await agent.hub.groups.get(group_id)).session_id
    sub = await agent.hub.groups.create(
        session_id,
        "charts sub-team",
        goal="a chart for the market report",
        parent_group_id=group_id,
        invite=[helper],
    )
    say("writer", "opened a sub-group", groupId=sub.id, parent=group_id, invited=[helper])
    stream = agent.hub.groups.events(sub.id)
    task_id: str | None = None
    product = ""
    async for event in stream:
        data = event.data
        joined = event.kind == "member" and data.get("agentId") == helper
        if joined and data.get("state") == "active" and task_id is None:
            task_id = await agent.hub.groups.assign(
                sub.id, helper, "chart the unit sales", parent_task_id=command["taskId"]
            )
            say("writer", "assigned a sub-task", taskId=task_id, record="start", to=helper)
        elif (
            data.get("type") == "task-result"
            and task_id is not None
            and data.get("taskId") == task_id
            and data["status"]["state"] == "awaiting-completion"
        ):
            product = text_of(data)
            await agent.hub.groups.command(sub.id, task_id, "complete")
            break
    stream.close()
    await agent.hub.groups.post(sub.id, "Chart received, thanks.", role="leader")
    await agent.hub.groups.set_state(sub.id, "conclusion")
    say("writer", "concluded the sub-group", groupId=sub.id)
    return f"Report draft: EV market grows 21% to 17.1M units. Chart: {product}"


ROLES: dict[str, tuple[str, list[dict[str, Any]], Work]] = {
    "factorial": (
        "computes factorials of whole numbers",
        [{"id": "factorial", "name": "Factorial", "tags": ["math", "factorial"]}],
        factorial,
    ),
    "root": (
        "computes square roots",
        [{"id": "sqrt", "name": "Square root", "tags": ["math", "square root", "sqrt"]}],
        square_root,
    ),
    "researcher": (
        "collects market data and sales figures",
        [{"id": "market-data", "name": "Market research", "tags": ["market", "research"]}],
        research,
    ),
    "writer": (
        "writes market reports",
        [{"id": "report", "name": "Report writing", "tags": ["report", "writing"]}],
        write,
    ),
    "analyst": (
        "analyses market trends and risks",
        [{"id": "analysis", "name": "Market analysis", "tags": ["market", "analysis"]}],
        analyse,
    ),
    "charts": (
        "draws chart figures for reports",
        [{"id": "chart", "name": "Charts", "tags": ["chart", "figure"]}],
        chart,
    ),
}


class Direct(TaskHandler):
    """Point-to-point calls: answer with the role's skill; "apply: <group>" joins a team;
    "needs <skill>: ..." for a skill it lacks is handed back (rejected, GB/Z Annex B.3)."""

    def __init__(self, role: str, work: Work, skills: list[str]) -> None:
        self.role, self.work, self.skills = role, work, skills
        self.agent: Agent | None = None

    async def on_start(self, task: TaskContext) -> None:
        assert self.agent is not None
        text = task.text or ""
        needs = re.match(r"needs ([\w-]+):", text)
        if needs and needs[1] not in self.skills:
            reason = f"{self.role} cannot do {needs[1]}"
            tid = task.task_id
            say(self.role, "handed a task back", taskId=tid, record="rejected", reason=reason)
            await task.reject(reason)
            return
        tid = task.task_id
        say(self.role, "took a point-to-point call", taskId=tid, record="working", text=text)
        await task.working("on it")
        if text.startswith("apply:"):
            group_id = text.removeprefix("apply:").strip()
            await self.agent.hub.groups.apply(group_id, note=f"{self.role} can help")
            say(self.role, "applied to join a group", groupId=group_id)
            answer = f"applied to {group_id}"
        else:
            answer = await self.work(self.agent, {}, text)
        await task.await_completion(
            [{"id": "answer", "dataItems": [{"type": "text", "text": answer}]}]
        )


async def take_group_task(agent: Agent, role: str, work: Work, command: dict[str, Any]) -> None:
    group_id, task_id = command["groupId"], command["taskId"]
    say(role, "accepted a group task", taskId=task_id, record="accepted", text=text_of(command))
    await agent.hub.groups.report(group_id, task_id, "accepted")
    await agent.hub.groups.report(group_id, task_id, "working")
    try:
        answer = await work(agent, command, text_of(command))
    except Exception as exc:  # the task fails, the agent goes on
        await agent.hub.groups.report(group_id, task_id, "failed", text=str(exc)[:500])
        say(role, "failed a task", taskId=task_id, record="failed", error=repr(exc)[:300])
        return
    await agent.hub.groups.report(group_id, task_id, "awaiting-completion", text=answer)
    say(role, "reported a result", taskId=task_id, record="awaiting-completion", result=answer)


async def follow_group(agent: Agent, role: str, group_id: str) -> None:
    """Answer each plain message of the group that mentions this member; the hub decides
    whether it may speak now (IoA flow control), and the member says what it was told. The
    group's stream ends when the group concludes."""
    try:
        await _answer_mentions(agent, role, group_id)
    except Exception as exc:  # said, so that a demo that waits for an answer shows why
        say(role, "lost a group stream", groupId=group_id, error=repr(exc)[:300])
        raise


async def _answer_mentions(agent: Agent, role: str, group_id: str) -> None:
    async for event in agent.hub.groups.events(group_id):
        data = event.data
        mentioned = data.get("mentions") == "all" or agent.agent_id in (data.get("mentions") or [])
        if data.get("type") != "message" or data.get("senderId") == agent.agent_id or not mentioned:
            continue
        try:
            await agent.hub.groups.post(group_id, f"{role}: the figures check out.")
        except HubRequestError as exc:
            say(role, "was refused the floor", groupId=group_id, code=exc.code)
        else:
            say(role, "spoke", groupId=group_id)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=sorted(ROLES), required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    description, skills, work = ROLES[args.role]
    direct = Direct(args.role, work, [s["id"] for s in skills])
    handler = Subscribed(direct)  # a call may carry its trigger (GB/Z Annex B.4)
    agent, serving, server = await join_hub(
        args.role, description, skills, port=args.port, handler=handler
    )
    direct.agent, handler.hub = agent, agent.hub
    busy: set[asyncio.Task[None]] = set()
    try:
        async for event in agent.hub.inbox():
            data = event.data
            if event.kind == "member" and data.get("state") == "invited":
                await agent.hub.groups.accept(data["groupId"])
                say(args.role, "accepted an invitation", groupId=data["groupId"])
            elif event.kind == "member" and data.get("state") == "active":
                say(args.role, "is a member now", groupId=data["groupId"])
                follower = asyncio.create_task(follow_group(agent, args.role, data["groupId"]))
                busy.add(follower)
                follower.add_done_callback(busy.discard)
            elif event.kind == "task" and data.get("command") == "start":
                if data.get("groupId") and data.get("partnerId") == agent.agent_id:
                    job = asyncio.create_task(take_group_task(agent, args.role, work, data))
                    busy.add(job)
                    job.add_done_callback(busy.discard)
            elif event.kind == "task" and data.get("command") == "complete" and data.get("groupId"):
                # a group task's completion (a call's is the caller's to tell)
                tid = data.get("taskId")
                say(args.role, "saw its task completed", taskId=tid, record="complete")
    finally:
        await leave_hub(agent, serving, server)


if __name__ == "__main__":
    run(main())
