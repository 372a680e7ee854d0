"""The team leader: reaches two goals with the team it discovers, as IoA describes.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
        python -m app.demo.team.leader --port 9100

1. "calculate sqrt(9!)": a math team by invitation; two synchronous sub-tasks in a row.
2. "a market report": a team formed by invitation and by reviewing an application; a
   synchronous sub-task, then two asynchronous ones behind a trigger (pause-and-trigger);
   the writer forms a sub-team of its own; results come back; the group concludes.
3. In the same session, one point-to-point call by each method: rpc, stream, notification.
4. A review panel that speaks in turns (IoA's next speaker): a member that speaks out of
   turn is refused, a silent speaker's turn times out, and ``sync-task-assignment`` refuses a
   member without a task (``app.demo.team.flow``).
5. GB/Z 185.6 Annex B's patterns, point-to-point: master-slave, proxy negotiation, task
   subscription (``app.demo.team.patterns``).

Each is a step of ``STEPS``, run in order in one session.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import agenthub.tracing as tracing
from agenthub import Agent
from agenthub.events import EventStream
from app.demo.team.common import join_hub, leave_hub, run, say, text_of, until_active
from app.demo.team.flow import speaker_selection
from app.demo.team.patterns import master_slave, proxy_negotiation, task_subscription

NEEDS = {  # role -> what the leader searches the directory for
    "factorial": "factorial",
    "root": "square root",
    "researcher": "market research",
    "writer": "report writing",
    "analyst": "market analysis",
}


class GroupWatch:
    """Follows one group's stream: task results and fired triggers, as futures."""

    def __init__(self, agent: Agent, group_id: str) -> None:
        self.stream: EventStream = agent.hub.groups.events(group_id)
        self.results: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.fired = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._follow())

    def result(self, task_id: str) -> asyncio.Future[dict[str, Any]]:
        return self.results.setdefault(task_id, asyncio.get_running_loop().create_future())

    async def _follow(self) -> None:
        try:
            await self._read()
        except Exception as exc:
            say("leader", "lost a group stream", error=repr(exc)[:300])
            raise

    async def _read(self) -> None:
        async for event in self.stream:
            data = event.data
            if data.get("type") == "task-result" and data["status"]["state"] in (
                "awaiting-completion",
                "failed",
                "rejected",
            ):
                future = self.result(data["taskId"])
                if not future.done():
                    future.set_result(data)
            elif event.kind == "trigger.fired" and not self.fired.done():
                self.fired.set_result(data)

    async def close(self) -> None:
        self.task.cancel()
        self.stream.close()


async def discover(agent: Agent) -> dict[str, str]:
    found = {}
    for role, query in NEEDS.items():
        match = (await agent.hub.list_agents(q=query)).items[0]
        found[role] = match.id
        say("leader", "discovered a collaborator", query=query, name=match.name, agentId=match.id)
    return found


async def sqrt_of_9_factorial(agent: Agent, session_id: str, team: dict[str, str]) -> str:
    groups = agent.hub.groups
    math_team = [team["factorial"], team["root"]]
    group = await groups.create(
        session_id, "math team", goal="calculate sqrt(9!)", invite=math_team
    )
    say("leader", "formed a group by invitation", groupId=group.id, invited=math_team)
    watch = GroupWatch(agent, group.id)
    await until_active(agent, group.id, math_team)
    await groups.set_state(group.id, "sync-task-assignment")
    first = await groups.assign(group.id, team["factorial"], "factorial of 9")
    say("leader", "assigned a synchronous sub-task", taskId=first, record="start", to="factorial")
    nine_factorial = text_of(await watch.result(first))
    await groups.command(group.id, first, "complete")
    second = await groups.assign(group.id, team["root"], f"square root of {nine_factorial}")
    say("leader", "assigned a synchronous sub-task", taskId=second, record="start", to="root")
    answer = text_of(await watch.result(second))
    await groups.command(group.id, second, "complete")
    await groups.post(group.id, f"sqrt(9!) = {answer}. Thank you all.", role="leader")
    await groups.set_state(group.id, "conclusion")
    say("leader", "concluded the group", groupId=group.id, answer=answer)
    await watch.close()
    return answer


async def market_report(agent: Agent, session_id: str, team: dict[str, str]) -> str:
    groups, lead = agent.hub.groups, agent.leader
    invited = [team["researcher"], team["writer"]]
    group = await groups.create(
        session_id,
        "report team",
        goal="a market report on EVs",
        join_policy="apply",
        invite=invited,
    )
    say("leader", "formed a group by invitation", groupId=group.id, invited=invited)
    watch = GroupWatch(agent, group.id)
    applications = agent.hub.inbox()
    # the analyst is asked point-to-point (rpc) to apply; its application is reviewed here
    answer = await lead.start(team["analyst"], session_id=session_id, text=f"apply: {group.id}")
    say("leader", "asked the analyst to apply (point-to-point rpc)", answer=text_of(answer))
    await lead.complete(team["analyst"], session_id=session_id, task_id=answer["taskId"])
    async for event in applications:
        if event.kind == "application" and event.data.get("agentId") == team["analyst"]:
            break
    applications.close()
    await groups.approve(group.id, team["analyst"])
    say("leader", "reviewed and approved an application", groupId=group.id, agentId=team["analyst"])
    await until_active(agent, group.id, [*invited, team["analyst"]])

    await groups.set_state(group.id, "sync-task-assignment")
    data = await groups.assign(group.id, team["researcher"], "collect EV market data for 2026")
    say("leader", "assigned a synchronous sub-task", taskId=data, record="start", to="researcher")
    figures = text_of(await watch.result(data))
    await groups.command(group.id, data, "complete")

    await groups.set_state(group.id, "async-task-assignment")
    draft = await groups.assign(group.id, team["writer"], f"draft the report from: {figures}")
    review = await groups.assign(group.id, team["analyst"], f"analyse: {figures}")
    say(
        "leader",
        "assigned asynchronous sub-tasks",
        taskIds=[draft, review],
        record="start",
        to=["writer", "analyst"],
    )
    await groups.add_trigger(group.id, [draft, review], timeout_seconds=120)
    await groups.set_state(group.id, "pause-and-trigger")
    say("leader", "paused the group until both finish (pause-and-trigger)", groupId=group.id)

    async def accept_when_done(task_id: str) -> str:
        """Each result is accepted (its task completes) as it comes back, in any order."""
        answer = text_of(await watch.result(task_id))
        await groups.command(group.id, task_id, "complete")
        return answer

    report, risks = await asyncio.gather(accept_when_done(draft), accept_when_done(review))
    fired = await watch.fired
    say(
        "leader", "the trigger fired; discussion resumes", groupId=group.id, trigger=fired.get("id")
    )
    final = f"{report} Analysis: {risks}."
    await groups.post(group.id, f"Final report: {final}", role="leader")
    await groups.set_state(group.id, "conclusion")
    say("leader", "concluded the group", groupId=group.id)
    await watch.close()
    return final


async def three_methods(agent: Agent, session_id: str, partner: str) -> None:
    """Hybrid mode: the same session, straight to the researcher's endpoint."""
    lead = agent.leader
    answer = await lead.start(partner, session_id=session_id, text="one fact about EVs")
    say("leader", "called point-to-point by rpc", state=answer["status"]["state"])
    await lead.complete(partner, session_id=session_id, task_id=answer["taskId"])
    states = []
    async for event in lead.start_streaming(partner, session_id=session_id, text="stream it"):
        data = event["eventData"]
        states.append(data.get("status", {}).get("state", data["type"]))
    say("leader", "called point-to-point by stream", events=states)
    await lead.complete(partner, session_id=session_id, task_id=data["taskId"])
    ack = await lead.start_notified(
        partner, session_id=session_id, notify_url=agent.notifications_url, text="notify me"
    )
    assert agent.inbox is not None
    pushed = await agent.inbox.wait(
        ack["taskId"], lambda e: e["status"]["state"] == "awaiting-completion"
    )
    say("leader", "called point-to-point by notification", pushed=pushed["status"]["state"])
    await lead.complete(partner, session_id=session_id, task_id=ack["taskId"])


Step = Callable[[Agent, str, dict[str, str]], Awaitable[dict[str, Any]]]
"""One step of the plan: (the leader, the session, the team by role) -> what the closing line
reports of it. A new step is a function like these, listed in ``STEPS``."""


async def math_goal(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    return {"sqrt": await sqrt_of_9_factorial(agent, session_id, team)}


async def report_goal(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    return {"report": await market_report(agent, session_id, team)}


async def each_method(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    await three_methods(agent, session_id, team["researcher"])
    return {}


STEPS: tuple[Step, ...] = (
    math_goal,
    report_goal,
    each_method,
    speaker_selection,  # IoA flow control: next speaker, turns, a state that refuses a post
    master_slave,  # GB/Z 185.6 Annex B.2
    proxy_negotiation,  # B.3
    task_subscription,  # B.4
)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    agent, serving, server = await join_hub(
        "leader",
        "coordinates a team toward a goal",
        [{"id": "lead", "name": "Team lead", "tags": ["planning"]}],
        port=args.port,
    )
    try:
        with tracing.span("demo: sqrt(9!) and a market report"):  # the goal, one trace
            await _story(agent)
    finally:
        await leave_hub(agent, serving, server)


async def _story(agent: Agent) -> None:
    team = await discover(agent)
    # hybrid: everyone works in groups; the researcher and the analyst are also called
    # point-to-point, so they are declared in both modes
    direct = [team["researcher"], team["analyst"]]
    receivers = [{"agentId": a, "mode": "group"} for a in team.values()]
    receivers += [{"agentId": a, "mode": "p2p"} for a in direct]
    session = await agent.leader.open_session(
        receivers, title="IoA demo", goal="sqrt(9!) and a market report"
    )
    say("leader", "opened a session", sessionId=session.id)
    closing: dict[str, Any] = {}
    assert agent.recorder is not None
    for step in STEPS:
        say("leader", "heading", step=step.__name__)  # the transcript's section for it
        closing.update(await step(agent, session.id, team))
        await agent.recorder.flush(30)  # its point-to-point records, for the transcript
    say("leader", "heading", step="epilogue")
    await agent.leader.close_session(session.id)
    say("leader", "closed the session", sessionId=session.id, **closing)


if __name__ == "__main__":
    run(main())
