"""The leader's GB/Z 185.6 Annex B steps: master-slave, proxy negotiation, task subscription.

Each is one step of the leader's plan (``app.demo.team.leader.STEPS``), point-to-point in the
demo's session with the researcher and the analyst, built on the kit's ``agenthub.patterns``
and ``agenthub.triggers``.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping
from typing import Any

from agenthub import (
    Agent,
    Outcome,
    Subtask,
    Trigger,
    fan_out,
    negotiate,
    start_when,
    subscribe,
)
from app.demo.team.common import say, text_of

SUBSCRIPTION_DELAY_SECONDS = 0.5


def _names(team: dict[str, str]) -> dict[str, str]:
    return {agent_id: role for role, agent_id in team.items()}


async def master_slave(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    """B.2: the leader splits a brief in two sub-tasks, one after another (the analysis
    needs the figures: it depends on their task), and fuses the results."""
    researcher, analyst = team["researcher"], team["analyst"]

    def analysis(got: Mapping[str, Outcome]) -> str:
        return f"analyse: {got[researcher].text}"

    subtasks: dict[str, Subtask] = {researcher: "EV sales figures for 2026", analyst: analysis}
    say("leader", "split a brief into sub-tasks (master-slave)", to=["researcher", "analyst"])
    gathered = await fan_out(agent.leader, session_id, subtasks, concurrent=False)
    brief = gathered.fuse(lambda done: " | ".join(o.text for o in done.values()))
    say("leader", "fused the sub-tasks' results (master-slave)", result=brief)
    return {"brief": brief}


async def proxy_negotiation(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    """B.3: the leader offers a task to the analyst first, who hands it back; the next
    candidate, the researcher, takes it."""
    names = _names(team)
    candidates = [team["analyst"], team["researcher"]]
    deal = await negotiate(
        agent.leader, session_id, candidates, "needs market-data: EV sales by maker"
    )
    say(
        "leader",
        "negotiated a task: handed back by one, taken by the next (proxy negotiation)",
        declined=[f"{names[o.partner_id]}: {o.reason}" for o in deal.declined],
        to=names[deal.partner_id],
        result=deal.outcome.text,
    )
    return {"negotiated": names[deal.partner_id]}


async def task_subscription(agent: Agent, session_id: str, team: dict[str, str]) -> dict[str, Any]:
    """B.4, both forms: the analyst gets a task with its trigger (the researcher's task
    holding its answer) and watches it; the leader watches a time and then starts that
    researcher's task."""
    lead, researcher, analyst = agent.leader, team["researcher"], team["analyst"]
    figures = f"task-{uuid.uuid4().hex}"
    when_figures = Trigger.on_task(figures, product_id="answer")
    waiting = asyncio.create_task(
        start_when(
            lead, analyst, when_figures, session_id=session_id, text="analyse the new figures"
        )
    )
    say("leader", "sent the analyst a task with its trigger (task subscription)", to="analyst")

    async def fetch(_: dict[str, Any] | None) -> dict[str, Any]:
        say("leader", "the time came: started the researcher's task", to="researcher")
        return await lead.start(
            researcher, session_id=session_id, text="EV sales, fresh", task_id=figures
        )

    timed = subscribe(lead, Trigger.after(SUBSCRIPTION_DELAY_SECONDS), fetch)
    say(
        "leader",
        "subscribed to a time: the researcher's task starts then (task subscription)",
        after=SUBSCRIPTION_DELAY_SECONDS,
    )
    await timed
    await lead.complete(researcher, session_id=session_id, task_id=figures)
    analysed = await waiting
    await lead.complete(analyst, session_id=session_id, task_id=analysed["taskId"])
    say(
        "leader",
        "the analyst's trigger fired and it answered (task subscription)",
        result=text_of(analysed),
    )
    return {}
