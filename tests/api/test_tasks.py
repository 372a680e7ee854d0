"""The task projection: the AIP state table decides every move; 409s change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import event
from sqlmodel import col

from agenthub import HubClient
from agenthub.protocol import TaskCommandType, TaskState
from agenthub.protocol.tasks import leader_command_target
from app.core.models import StoredMessage
from tests.api.test_sessions import open_session
from tests.support.groups import count as count_rows
from tests.support.hub import MakeAgent, problem
from tests.support.messages import command, result, text
from tests.support.parts import parts


class Pair:
    def __init__(self, leader: HubClient, partner: HubClient, session_id: str) -> None:
        self.leader, self.partner, self.session_id = leader, partner, session_id
        self.path = f"/v1/sessions/{session_id}/messages"

    @property
    def lid(self) -> str:
        return self.leader.agent_id or ""

    @property
    def pid(self) -> str:
        return self.partner.agent_id or ""

    async def lead(self, name: str, task_id: str | None = None, **extra: Any) -> Any:
        return await self.leader.request(
            "POST", self.path, json=command(self.lid, name, task_id=task_id, **extra)
        )

    async def report(self, task_id: str, state: str, **extra: Any) -> Any:
        return await self.partner.request(
            "POST", self.path, json=result(self.pid, task_id, state, **extra)
        )

    async def task(self, task_id: str) -> dict[str, Any]:
        response = await self.leader.request("GET", f"/v1/tasks/{task_id}")
        assert response.status_code == 200, response.text
        return dict(response.json())


async def pair(make_agent: MakeAgent) -> Pair:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    return Pair(leader, partner, session["id"])


async def started(p: Pair, task_id: str = "task-1") -> str:
    response = await p.lead("start", task_id, partnerId=p.pid, dataItems=text("sqrt(9!)"))
    assert response.status_code == 201, response.text
    return task_id


async def test_full_lifecycle_is_projected(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    fresh = await p.task(task_id)
    assert fresh["state"] == "submitted" and fresh["status"] is None
    assert fresh["leaderId"] == p.lid and fresh["partnerId"] == p.pid
    for state in ("accepted", "working", "working"):
        assert (await p.report(task_id, state)).status_code == 201
    product = {"id": "p1", "name": "answer", "dataItems": text("602.98")}
    assert (await p.report(task_id, "awaiting-completion", products=[product])).status_code == 201
    assert (await p.lead("complete", task_id)).status_code == 201
    task = await p.task(task_id)
    assert task["state"] == "completed"
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "working",
        "awaiting-completion",
        "completed",
    ]
    assert task["products"] == [product]
    history = (await p.leader.request("GET", p.path)).json()["items"]
    assert [m["type"] for m in history] == ["task-command"] + ["task-result"] * 4 + ["task-command"]
    assert all(m["taskId"] == task_id for m in history)


async def test_start_without_task_id_gets_one(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    response = await p.lead("start", mentions=[p.pid])
    assert response.status_code == 201
    task_id = response.json()["taskId"]
    assert task_id.startswith("task-")
    assert (await p.task(task_id))["partnerId"] == p.pid


async def test_bad_starts_are_refused(make_agent: MakeAgent, make_agent_2: Any = None) -> None:
    p = await pair(make_agent)
    stranger = await make_agent("stranger")
    problem(await p.lead("start", "t"), 422)  # no partner
    problem(await p.lead("start", "t", mentions=[p.pid, p.lid]), 422)  # two mentioned
    problem(await p.lead("start", "t", partnerId=stranger.agent_id), 422)  # not in the session
    problem(await p.lead("start", "t", partnerId=p.lid), 422)  # itself
    problem(await p.lead("start", "t", partnerId=p.pid, parentTaskId="nope"), 422)
    problem(await p.lead("start", "t", partnerId=p.pid, dependencies=["nope"]), 422)
    problem(await p.lead("continue"), 422)  # no taskId
    problem(await p.leader.request("GET", "/v1/tasks/t"), 404)
    await started(p, "t")
    # the same start again (a new message id) is the same move; another leader's is a 409
    assert (await p.lead("start", "t", partnerId=p.pid)).status_code == 201
    theirs = command(p.pid, "start", task_id="t", partnerId=p.lid)
    answer = problem(await p.partner.request("POST", p.path, json=theirs), 409)
    assert answer["type"].endswith("/task-exists")


async def test_illegal_moves_are_409_and_change_nothing(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    assert (await p.report(task_id, "accepted")).status_code == 201
    assert (await p.lead("cancel", task_id)).status_code == 201
    answer = problem(await p.report(task_id, "rejected"), 409)  # past it: canceled
    assert answer["type"].endswith("/illegal-task-move")
    problem(await p.report(task_id, "working"), 409)
    task = await p.task(task_id)
    assert [s["state"] for s in task["statusHistory"]] == ["accepted", "canceled"]
    history = (await p.leader.request("GET", p.path)).json()["items"]
    assert len(history) == 3  # the start, the accepted and the cancel: nothing refused


async def test_a_partner_may_reject_a_task_it_accepted_or_fail_a_start(
    make_agent: MakeAgent,
) -> None:
    """An acps-sdk partner creates its task accepted, then may reject it; a start may be
    answered failed at once (or recorded so by its leader, when its call failed)."""
    p = await pair(make_agent)
    rejected = await started(p, "t-rejected")
    for state in ("accepted", "rejected"):
        assert (await p.report(rejected, state)).status_code == 201, state
    failed = await started(p, "t-failed")
    assert (await p.report(failed, "failed")).status_code == 201
    for task_id, states in ((rejected, ["accepted", "rejected"]), (failed, ["failed"])):
        task = await p.task(task_id)
        assert [s["state"] for s in task["statusHistory"]] == states
        assert task["state"] == states[-1]
    problem(await p.report(rejected, "working"), 409)  # it ended there


async def test_commands_aip_ignores_are_kept_and_move_nothing(make_agent: MakeAgent) -> None:
    """AIP §4.5: a partner ignores complete, continue or cancel on an ended task; the hub
    keeps the leader's command as sent (201) and the task stays where it ended."""
    p = await pair(make_agent)
    task_id = await started(p)
    assert (await p.report(task_id, "accepted")).status_code == 201
    assert (await p.lead("cancel", task_id)).status_code == 201
    for name in ("complete", "continue", "cancel"):
        assert (await p.lead(name, task_id)).status_code == 201
    task = await p.task(task_id)
    assert task["state"] == "canceled"
    assert [s["state"] for s in task["statusHistory"]] == ["accepted", "canceled"]
    history = (await p.leader.request("GET", p.path)).json()["items"]
    assert [m.get("command") for m in history][-3:] == ["complete", "continue", "cancel"]


async def test_a_partners_timeout_moves_go_in(make_agent: MakeAgent) -> None:
    """AIP §4.5 rows 11 and 15: a wait for the leader that times out is the partner's
    move (awaiting-input to canceled, awaiting-completion to completed)."""
    p = await pair(make_agent)
    for path, end in (("awaiting-input", "canceled"), ("awaiting-completion", "completed")):
        task_id = await started(p, f"t-{end}")
        for state in ("accepted", "working", path, end):
            assert (await p.report(task_id, state)).status_code == 201, state
        assert (await p.task(task_id))["state"] == end
        # the leader's command, sent before it heard: ignored, not refused
        assert (await p.lead("continue", task_id)).status_code == 201
        assert (await p.task(task_id))["state"] == end


async def test_moves_not_allowed_yet_wait_and_go_in_once_they_are(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    # the partner's records overtook one another: working and the question before accepted
    assert (await p.report(task_id, "awaiting-input")).status_code == 202
    assert (await p.report(task_id, "working")).status_code == 202
    assert (await p.task(task_id))["state"] == "submitted"
    assert (await p.report(task_id, "accepted")).status_code == 201
    task = await p.task(task_id)
    # folded in the order they were sent, not the order they came
    assert [s["state"] for s in task["statusHistory"]] == ["accepted", "working", "awaiting-input"]
    assert task["state"] == "awaiting-input"


async def test_wrong_roles_are_409(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    assert (await p.report(task_id, "accepted")).status_code == 201
    # the leader reports a status, the partner sends a command: both wrong roles
    as_leader = result(p.lid, task_id, "working")
    problem(await p.leader.request("POST", p.path, json=as_leader), 409)
    as_partner = command(p.pid, "cancel", task_id=task_id)
    problem(await p.partner.request("POST", p.path, json=as_partner), 409)
    assert (await p.task(task_id))["state"] == "accepted"


async def test_final_states_are_final(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    assert (await p.report(task_id, "rejected")).status_code == 201
    for state in ("accepted", "working"):
        problem(await p.report(task_id, state), 409)
    # rejected again is the same move: recorded, nothing changes
    assert (await p.report(task_id, "rejected")).status_code == 201
    assert len((await p.task(task_id))["statusHistory"]) == 1
    for name in ("cancel", "continue", "complete"):  # ignored (AIP §4.5): kept, no move
        assert (await p.lead(name, task_id)).status_code == 201
    assert (await p.task(task_id))["state"] == "rejected"
    assert (await p.lead("get", task_id)).status_code == 201  # asking is always fine


async def test_continue_and_cancel_paths(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    for state in ("accepted", "working", "awaiting-input"):
        assert (await p.report(task_id, state)).status_code == 201
    assert (await p.lead("continue", task_id, dataItems=text("more"))).status_code == 201
    assert (await p.task(task_id))["state"] == "working"
    assert (await p.lead("cancel", task_id)).status_code == 201
    assert (await p.task(task_id))["state"] == "canceled"


async def test_a_partners_report_of_a_task_not_seen_yet_creates_it(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    other = await open_session(p.leader, p.partner)
    body = result(p.pid, task_id, "accepted")  # in another session: another task
    posted = await p.partner.request("POST", f"/v1/sessions/{other['id']}/messages", json=body)
    assert posted.status_code == 201, posted.text
    task = (
        await p.leader.request("GET", f"/v1/tasks/{task_id}", params={"sessionId": other["id"]})
    ).json()
    assert (task["leaderId"], task["partnerId"], task["state"]) == (p.lid, p.pid, "accepted")
    # the leader's start, arriving later, is the same task: nothing moves back
    start = command(p.lid, "start", task_id=task_id, partnerId=p.pid)
    again = await p.leader.request("POST", f"/v1/sessions/{other['id']}/messages", json=start)
    assert again.status_code == 201
    moved = await p.leader.request("GET", f"/v1/tasks/{task_id}", params={"sessionId": other["id"]})
    assert moved.json()["state"] == "accepted"


async def test_parent_and_dependencies_are_kept(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    parent = await started(p, "parent")
    sibling = await started(p, "sibling")
    response = await p.lead(
        "start", "child", partnerId=p.pid, parentTaskId=parent, dependencies=[sibling]
    )
    assert response.status_code == 201, response.text
    child = await p.task("child")
    assert child["parentTaskId"] == parent and child["dependencies"] == [sibling]


async def test_task_visibility_and_listing(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    stranger = await make_agent("stranger")
    task_id = await started(p)
    problem(await stranger.request("GET", f"/v1/tasks/{task_id}"), 404)
    assert (await p.partner.request("GET", f"/v1/tasks/{task_id}")).status_code == 200
    await started(p, "task-2")
    await p.report("task-2", "accepted")

    async def ids(kit: HubClient, **params: Any) -> list[str]:
        page = (await kit.request("GET", "/v1/tasks", params=params)).json()
        return sorted(t["id"] for t in page["items"])

    assert await ids(p.leader) == ["task-1", "task-2"]
    assert await ids(p.leader, role="partner") == []
    assert await ids(p.partner, role="partner") == ["task-1", "task-2"]
    assert await ids(p.partner, state="accepted") == ["task-2"]
    assert await ids(p.leader, sessionId=p.session_id, limit=1) == ["task-1"]
    assert await ids(stranger) == []
    problem(await p.leader.request("GET", "/v1/tasks", params={"state": "sleeping"}), 422)


async def test_product_chunks_append(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    await p.report(task_id, "accepted")
    await p.report(task_id, "working")
    for i, append in enumerate((False, True)):
        chunk = {
            "type": "product-chunk",
            "id": f"chunk-{i}",
            "sentAt": "2026-11-30T12:00:00Z",
            "senderRole": "partner",
            "senderId": p.pid,
            "taskId": task_id,
            "product": {"id": "report", "dataItems": text(f"part {i}")},
            "append": append,
            "lastChunk": i == 1,
        }
        assert (await p.partner.request("POST", p.path, json=chunk)).status_code == 201
    products = (await p.task(task_id))["products"]
    assert [d["text"] for d in products[0]["dataItems"]] == ["part 0", "part 1"]


async def test_concurrent_conflicting_moves_serialize(make_agent: MakeAgent) -> None:
    """complete, cancel and continue race on one task: what is stored folds to a legal chain,
    and what was refused left nothing behind."""
    p = await pair(make_agent)
    for round_ in range(4):
        task_id = await started(p, f"race-{round_}")
        for state in ("accepted", "working", "awaiting-completion"):
            assert (await p.report(task_id, state)).status_code == 201
        moves = ["complete", "cancel", "continue", "complete", "cancel", "continue"]
        responses = await asyncio.gather(*(p.lead(m, task_id) for m in moves))
        codes = [r.status_code for r in responses]
        assert set(codes) <= {201, 202, 409}, codes
        task = await p.task(task_id)
        chain = [s["state"] for s in task["statusHistory"][3:]]
        assert chain, codes
        current = TaskState.AWAITING_COMPLETION
        for state in chain:  # each move legal where the fold put it
            target = {leader_command_target(current, TaskCommandType(m)) for m in moves}
            assert TaskState(state) in target, (current, chain)
            current = TaskState(state)
        assert task["state"] == chain[-1]
        history = (await p.leader.request("GET", p.path, params={"limit": 500})).json()["items"]
        stored = len([m for m in history if m.get("taskId") == task_id])
        assert stored == 1 + 3 + codes.count(201) + codes.count(202)  # no 409 was kept


async def test_a_parent_or_dependency_from_another_session_is_unknown(
    make_agent: MakeAgent,
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    stranger = await make_agent("stranger")
    theirs = (await open_session(stranger, partner))["id"]
    url = f"/v1/sessions/{theirs}/messages"
    start = command(str(stranger.agent_id), "start", task_id="t-theirs", partnerId=partner.agent_id)
    assert (await stranger.request("POST", url, json=start)).status_code == 201
    mine = (await open_session(leader, partner))["id"]
    for field, value in (("parentTaskId", "t-theirs"), ("dependencies", ["t-theirs"])):
        body = command(str(leader.agent_id), "start", partnerId=partner.agent_id, **{field: value})
        answer = problem(
            await leader.request("POST", f"/v1/sessions/{mine}/messages", json=body), 422
        )
        assert "in this session" in answer["detail"]


async def test_task_ids_are_per_session_so_a_stranger_neither_learns_nor_takes_one(
    make_agent: MakeAgent,
) -> None:
    p = await pair(make_agent)
    await started(p, "t-shared")
    stranger = await make_agent("stranger")
    theirs = (await open_session(stranger, p.partner))["id"]
    # the same id in the stranger's own session: created, as any fresh id would be
    start = command(str(stranger.agent_id), "start", task_id="t-shared", partnerId=p.pid)
    response = await stranger.request("POST", f"/v1/sessions/{theirs}/messages", json=start)
    assert response.status_code == 201, response.text
    # and an id the stranger takes first is still the leader's to use in its session
    first = command(str(stranger.agent_id), "start", task_id="t-next", partnerId=p.pid)
    assert (
        await stranger.request("POST", f"/v1/sessions/{theirs}/messages", json=first)
    ).status_code == 201
    await started(p, "t-next")
    await p.report("t-next", "accepted")

    mine = await p.task("t-next")
    assert (mine["sessionId"], mine["leaderId"], mine["state"]) == (p.session_id, p.lid, "accepted")
    seen = (await stranger.request("GET", "/v1/tasks/t-next")).json()
    seen_as = (seen["sessionId"], seen["leaderId"], seen["state"])
    assert seen_as == (theirs, stranger.agent_id, "submitted")
    # the partner works on both: it says which it means
    answer = problem(await p.partner.request("GET", "/v1/tasks/t-next"), 409)
    assert answer["type"].endswith("/ambiguous-task-id")
    for session_id in (p.session_id, theirs):
        one = await p.partner.request("GET", "/v1/tasks/t-next", params={"sessionId": session_id})
        assert one.status_code == 200 and one.json()["sessionId"] == session_id
    problem(
        await stranger.request("GET", "/v1/tasks/t-next", params={"sessionId": p.session_id}), 404
    )
    # a report moves the task of the session it is posted to, and no other
    assert (await stranger.request("GET", "/v1/tasks/t-next")).json()["state"] == "submitted"


async def test_tasks_page_through_ids_shared_by_sessions(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    sessions = [(await open_session(leader, partner))["id"] for _ in range(3)]
    for session_id in sessions:
        for task_id in ("a", "b"):
            start = command(
                str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id
            )
            url = f"/v1/sessions/{session_id}/messages"
            assert (await leader.request("POST", url, json=start)).status_code == 201
    seen: list[tuple[str, str]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 1}
        if cursor:
            params["cursor"] = cursor
        page = (await leader.request("GET", "/v1/tasks", params=params)).json()
        seen += [(t["sessionId"], t["id"]) for t in page["items"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted((s, t) for s in sessions for t in ("a", "b"))


async def test_records_sent_before_the_session_closed_still_go_in(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    trailing = result(p.pid, task_id, "accepted")  # sent now, reaches the hub after the close
    closed = await p.leader.request(
        "PATCH", f"/v1/sessions/{p.session_id}", json={"state": "closed"}
    )
    assert closed.status_code == 200, closed.text
    assert (await p.partner.request("POST", p.path, json=trailing)).status_code == 201
    assert (await p.task(task_id))["state"] == "accepted"
    late = result(p.pid, task_id, "working")  # sent after the close
    answer = problem(await p.partner.request("POST", p.path, json=late), 409)
    assert answer["type"].endswith("/session-closed")
    problem(await p.lead("start", "t-after", partnerId=p.pid), 409)


async def test_a_move_that_waits_costs_later_messages_no_fold_of_the_whole_task(
    make_agent: MakeAgent, hub: Any
) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    await p.report(task_id, "accepted")
    await p.report(task_id, "working")
    waits = await p.lead("complete", task_id)  # the partner has not asked for it yet
    assert waits.status_code == 202, waits.text
    whole_reads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("SELECT messages.pk, messages.body") and "waiting" not in statement:
            whole_reads.append(statement)

    engine = parts(hub).engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        for i in range(20):  # a stream of products, each after the waiting complete
            chunk = {
                "type": "product-chunk",
                "id": f"chunk-{i}",
                "sentAt": command(p.lid, "get")["sentAt"],
                "senderRole": "partner",
                "senderId": p.pid,
                "taskId": task_id,
                "product": {"id": "report", "dataItems": text(f"part {i}")},
                "append": i > 0,
                "lastChunk": i == 19,
            }
            posted = await p.partner.request("POST", p.path, json=chunk)
            assert posted.status_code == 201, posted.text
        assert (await p.report(task_id, "awaiting-completion")).status_code == 201
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert whole_reads == []  # each read only the complete that waits
    task = await p.task(task_id)
    assert task["state"] == "completed"  # the complete went in with the report
    assert len(task["products"][0]["dataItems"]) == 20
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
        "completed",
    ]
    waiting = col(StoredMessage.waiting).is_(True)
    assert await count_rows(hub, StoredMessage, col(StoredMessage.task_id) == task_id, waiting) == 0
