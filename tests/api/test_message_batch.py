"""POST /v1/sessions/{id}/messages:batch: each item recorded on its own, in order."""

from __future__ import annotations

from tests.api.test_tasks import pair, started
from tests.support.hub import MakeAgent, problem
from tests.support.messages import command, result


async def test_each_item_is_recorded_on_its_own_and_a_retry_changes_nothing(
    make_agent: MakeAgent,
) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    url = f"{p.path}:batch"
    items = [
        result(p.pid, task_id, "accepted"),
        result(p.pid, task_id, "awaiting-input"),  # not yet: waits for working
        result(p.pid, task_id, "working"),
        result(p.pid, task_id, "rejected"),  # past working: refused, alone
        {**result(p.pid, task_id, "working"), "senderId": p.lid},  # not the caller
    ]
    answer = await p.partner.request("POST", url, json={"items": items})
    assert answer.status_code == 200, answer.text
    outcomes = answer.json()["items"]
    assert [o["status"] for o in outcomes] == [201, 202, 201, 409, 403]
    assert outcomes[3]["problem"]["type"].endswith("/illegal-task-move")
    assert outcomes[0]["message"]["id"] == items[0]["id"]
    task = await p.task(task_id)
    assert [s["state"] for s in task["statusHistory"]] == ["accepted", "working", "awaiting-input"]
    again = await p.partner.request("POST", url, json={"items": items})
    assert [o["status"] for o in again.json()["items"]] == [200, 200, 200, 409, 403]
    assert len((await p.task(task_id))["statusHistory"]) == 3


async def test_a_batch_that_is_none_is_refused_whole(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    stranger = await make_agent("stranger")
    url = f"{p.path}:batch"
    problem(await p.leader.request("POST", url, json={"items": []}), 422)
    too_many = [command(p.lid, "get", task_id="t")] * 101
    problem(await p.leader.request("POST", url, json={"items": too_many}), 422)
    item = command(str(stranger.agent_id), "get", task_id="t")
    problem(await stranger.request("POST", url, json={"items": [item]}), 404)
