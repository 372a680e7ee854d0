"""Group messages and tasks, conversation states, nesting and triggers (over the API)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlmodel import col

from app.core.models import StoredMessage
from app.groups.models import GroupEvent, GroupTrigger
from app.main import create_app
from tests.support.groups import count, create_group, open_session, post, team
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat, command, result
from tests.support.parts import parts


async def test_post_assigns_seq_and_is_idempotent(make_agent: MakeAgent, hub: Any) -> None:
    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid = group["id"]
    body = chat(str(a.agent_id), "first", role="partner")
    first = await a.request("POST", f"/v1/groups/{gid}/messages", json=body)
    assert first.status_code == 201, first.text
    stored = first.json()
    assert stored["groupId"] == gid and stored["sessionId"] == group["sessionId"]
    assert stored["seq"] == group["lastSeq"] + 2  # after a's invitation and acceptance
    assert "receivedAt" in stored
    again = await a.request("POST", f"/v1/groups/{gid}/messages", json=body)
    assert again.status_code == 200 and again.json() == stored
    second = await post(leader, gid, "second", role="leader")
    assert second["seq"] == stored["seq"] + 1
    page = (await a.request("GET", f"/v1/groups/{gid}/messages", params={"limit": 1})).json()
    assert [m["id"] for m in page["items"]] == [body["id"]]
    rest = await a.request(
        "GET", f"/v1/groups/{gid}/messages", params={"after": page["nextCursor"]}
    )
    assert [m["seq"] for m in rest.json()["items"]] == [second["seq"]]
    assert rest.json()["nextCursor"] is None
    view = (await leader.request("GET", f"/v1/groups/{gid}")).json()
    assert view["lastSeq"] == second["seq"]


async def test_another_post_under_a_used_id_is_a_post_of_its_own(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A record is its sender, id and content: other content under an id the
    sender used in this group is a new post with its own seq; the same one again is not."""
    leader, a = await make_agent("leader"), await make_agent("a")
    gid = (await team(leader, a))["id"]
    url = f"/v1/groups/{gid}/messages"
    body = chat(str(a.agent_id), "first", role="partner")
    first = (await a.request("POST", url, json=body)).json()
    changed = {**body, "dataItems": [{"type": "text", "text": "second"}]}
    other = await a.request("POST", url, json=changed)
    assert other.status_code == 201, other.text
    assert other.json()["id"] == body["id"] and other.json()["seq"] == first["seq"] + 1
    again = await a.request("POST", url, json=changed)
    assert again.status_code == 200 and again.json() == other.json()
    items = (await a.request("GET", url)).json()["items"]
    texts = [m["dataItems"][0]["text"] for m in items if m["id"] == body["id"]]
    assert texts == ["first", "second"]


async def test_bad_posts_change_nothing(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, outsider = (await make_agent("leader"), await make_agent("a"), await make_agent("x"))
    group = await team(leader, a)
    gid = group["id"]
    url = f"/v1/groups/{gid}/messages"
    before = await count(hub, StoredMessage)
    problem(await a.request("POST", url, json=chat(str(leader.agent_id), "spoof")), 403)
    problem(await a.request("POST", url, json=chat(str(a.agent_id), "x", groupId="other")), 422)
    problem(await a.request("POST", url, json=chat(str(a.agent_id), "x", sessionId="other")), 422)
    problem(
        await a.request(
            "POST", url, json={**chat(str(a.agent_id), "x"), "dataItems": [{"type": "video"}]}
        ),
        422,
    )
    problem(
        await a.request(
            "POST", url, content=b"{not json", headers={"content-type": "application/json"}
        ),
        400,
    )
    problem(await outsider.request("POST", url, json=chat(str(outsider.agent_id), "x")), 404)
    problem(await outsider.request("GET", url), 404)
    problem(await outsider.request("GET", f"/v1/groups/{gid}/events"), 404)
    problem(await a.request("GET", url, params={"after": -1}), 422)
    problem(await a.request("GET", f"/v1/groups/{gid}/events", headers={"Last-Event-ID": "x"}), 400)
    huge = {"Last-Event-ID": "9" * 25}
    problem(await a.request("GET", f"/v1/groups/{gid}/events", headers=huge), 400)
    problem(await a.request("GET", "/v1/groups/nope/messages"), 404)
    problem(await a.request("GET", "/v1/groups/nope"), 404)
    assert await count(hub, StoredMessage) == before
    # only a's acceptance came after the group was created
    last_seq = (await leader.request("GET", f"/v1/groups/{gid}")).json()["lastSeq"]
    assert last_seq == group["lastSeq"] + 1


async def test_task_messages_in_a_group_move_tasks(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    group = await team(leader, a)
    gid = group["id"]
    url = f"/v1/groups/{gid}/messages"
    # the partner must be an active member
    problem(
        await leader.request(
            "POST",
            url,
            json=command(str(leader.agent_id), "start", task_id="t-x", partnerId=b.agent_id),
        ),
        422,
    )
    start = command(str(leader.agent_id), "start", task_id="t-1", partnerId=a.agent_id)
    assert (await leader.request("POST", url, json=start)).status_code == 201
    # a report claiming the wrong role is a 403; by the wrong agent, a 409; the store unchanged
    problem(
        await leader.request(
            "POST",
            url,
            json={**result(str(leader.agent_id), "t-1", "accepted"), "senderRole": "leader"},
        ),
        403,
    )
    problem(
        await leader.request("POST", url, json=result(str(leader.agent_id), "t-1", "accepted")), 409
    )
    for state in ("accepted", "working"):
        assert (
            await a.request("POST", url, json=result(str(a.agent_id), "t-1", state))
        ).status_code == 201
    problem(await a.request("POST", url, json=result(str(a.agent_id), "t-1", "accepted")), 409)
    task = (await a.request("GET", "/v1/tasks/t-1")).json()
    assert task["groupId"] == gid and task["state"] == "working"
    assert [s["state"] for s in task["statusHistory"]] == ["accepted", "working"]
    listed = (await leader.request("GET", "/v1/tasks", params={"groupId": gid})).json()
    assert [t["id"] for t in listed["items"]] == ["t-1"]


async def test_conversation_states(make_agent: MakeAgent, hub: Any) -> None:
    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid = group["id"]
    url = f"/v1/groups/{gid}"
    problem(await a.request("PATCH", url, json={"conversationState": "conclusion"}), 403)
    problem(
        await leader.request("PATCH", url, json={"conversationState": "pause-and-trigger"}), 409
    )
    problem(await leader.request("PATCH", url, json={"conversationState": "chaos"}), 422)
    for state in (
        "sync-task-assignment",
        "async-task-assignment",
        "pause-and-trigger",
        "discussion",
    ):
        response = await leader.request("PATCH", url, json={"conversationState": state})
        assert response.status_code == 200 and response.json()["conversationState"] == state
    renamed = await leader.request("PATCH", url, json={"name": "renamed", "goal": "new goal"})
    assert renamed.json()["name"] == "renamed"
    problem(await leader.request("PATCH", url, json={"name": None}), 422)
    assert (
        await leader.request("PATCH", url, json={"conversationState": "conclusion"})
    ).status_code == 200
    problem(await leader.request("PATCH", url, json={"conversationState": "discussion"}), 409)
    reply = chat(str(a.agent_id), "too late", role="partner")
    late = [
        await a.request("POST", f"{url}/messages", json=reply),
        await leader.request("POST", f"{url}/invitations", json={"agentId": a.agent_id}),
        await leader.request("POST", f"{url}/triggers", json={"taskIds": ["t-any"]}),
    ]
    for refused in late:  # each names its cause
        problem(refused, 409)
        assert refused.json()["type"].endswith("/group-concluded"), refused.text
    # every move is recorded in order
    async with parts(hub).session_factory() as db:
        from sqlmodel import select

        rows = await db.exec(
            select(GroupEvent.data)
            .where(col(GroupEvent.group_id) == gid, col(GroupEvent.kind) == "state")
            .order_by(col(GroupEvent.seq))
        )
        moves = [(d["previous"], d["state"]) for d in rows.all()]
    assert moves == [
        ("discussion", "sync-task-assignment"),
        ("sync-task-assignment", "async-task-assignment"),
        ("async-task-assignment", "pause-and-trigger"),
        ("pause-and-trigger", "discussion"),
        ("discussion", "conclusion"),
    ]


async def test_nested_groups_and_the_tree(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b, outsider = [await make_agent(n) for n in ("leader", "a", "b", "x")]
    root = await team(leader, a)
    session_id = root["sessionId"]
    child = await create_group(a, session_id, parentGroupId=root["id"], inviteIds=[b.agent_id])
    assert child["depth"] == 1 and child["parentGroupId"] == root["id"]
    grandchild = await create_group(a, session_id, parentGroupId=child["id"], name="deep")
    # only active members of the parent open sub-groups in it
    await b.request("POST", f"/v1/groups/{child['id']}/invitations/{b.agent_id}/decline")
    problem(
        await b.request(
            "POST",
            "/v1/groups",
            json={"sessionId": session_id, "name": "n", "parentGroupId": child["id"]},
        ),
        404,
    )
    problem(await outsider.request("GET", f"/v1/groups/{root['id']}/subgroups"), 404)
    parent = grandchild
    for _ in range(3):
        parent = await create_group(a, session_id, parentGroupId=parent["id"])
    assert parent["depth"] == 5
    problem(
        await a.request(
            "POST",
            "/v1/groups",
            json={"sessionId": session_id, "name": "n", "parentGroupId": parent["id"]},
        ),
        422,
    )
    children = (await leader.request("GET", f"/v1/groups/{root['id']}/subgroups")).json()["items"]
    assert [c["id"] for c in children] == [child["id"]] and children[0]["children"] == []
    tree = (
        await leader.request("GET", f"/v1/groups/{root['id']}/subgroups", params={"depth": "all"})
    ).json()["items"]
    depths = []
    node = tree[0]
    while True:
        depths.append(node["depth"])
        if not node["children"]:
            break
        node = node["children"][0]
    assert depths == [1, 2, 3, 4, 5]
    problem(
        await leader.request("GET", f"/v1/groups/{root['id']}/subgroups", params={"depth": "7"}),
        422,
    )


async def _finish(
    leader: Any, partner: Any, gid: str, task_id: str, end: str = "completed"
) -> None:
    url = f"/v1/groups/{gid}/messages"
    start = command(str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id)
    assert (await leader.request("POST", url, json=start)).status_code == 201
    for state in ("accepted", "working"):
        assert (
            await partner.request("POST", url, json=result(str(partner.agent_id), task_id, state))
        ).status_code == 201
    if end == "failed":
        assert (
            await partner.request(
                "POST", url, json=result(str(partner.agent_id), task_id, "failed")
            )
        ).status_code == 201
        return
    products = [{"id": "p", "dataItems": [{"type": "text", "text": "done"}]}]
    done = result(str(partner.agent_id), task_id, "awaiting-completion", products=products)
    assert (await partner.request("POST", url, json=done)).status_code == 201
    complete = command(str(leader.agent_id), "complete", task_id=task_id)
    assert (await leader.request("POST", url, json=complete)).status_code == 201


async def _start_only(leader: Any, partner: Any, gid: str, task_id: str) -> None:
    url = f"/v1/groups/{gid}/messages"
    start = command(str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id)
    assert (await leader.request("POST", url, json=start)).status_code == 201
    assert (
        await partner.request("POST", url, json=result(str(partner.agent_id), task_id, "accepted"))
    ).status_code == 201


async def fired_events(hub: Any, gid: str) -> list[dict[str, Any]]:
    from sqlmodel import select

    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(GroupEvent.data).where(
                col(GroupEvent.group_id) == gid, col(GroupEvent.kind) == "trigger.fired"
            )
        )
        return [dict(d) for d in rows.all()]


async def test_trigger_fires_once_when_tasks_end_and_resumes_discussion(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    group = await team(leader, a, b)
    gid = group["id"]
    await _start_only(leader, a, gid, "t-a")
    await _start_only(leader, b, gid, "t-b")
    problem(await a.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-a"]}), 403)
    problem(
        await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["nope"]}), 422
    )
    problem(await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": []}), 422)
    for state in ("async-task-assignment", "pause-and-trigger"):
        await leader.request("PATCH", f"/v1/groups/{gid}", json={"conversationState": state})
    made = await leader.request(
        "POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-a", "t-b"]}
    )
    assert made.status_code == 201, made.text
    assert made.json()["firedAt"] is None
    url = f"/v1/groups/{gid}/messages"
    for state in ("working", "failed"):
        await a.request("POST", url, json=result(str(a.agent_id), "t-a", state))
    assert await fired_events(hub, gid) == []
    await leader.request("POST", url, json=command(str(leader.agent_id), "cancel", task_id="t-b"))
    fired = await fired_events(hub, gid)
    assert len(fired) == 1 and fired[0]["outcome"] == "completed"
    assert {t["id"]: t["state"] for t in fired[0]["tasks"]} == {"t-a": "failed", "t-b": "canceled"}
    view = (await leader.request("GET", f"/v1/groups/{gid}")).json()
    assert view["conversationState"] == "discussion"
    triggers = (await leader.request("GET", f"/v1/groups/{gid}/triggers")).json()["items"]
    assert triggers[0]["outcome"] == "completed" and triggers[0]["firedAt"] is not None
    # a trigger on tasks that are already final fires at once
    again = await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-a"]})
    assert again.json()["outcome"] == "completed"
    assert len(await fired_events(hub, gid)) == 2


async def test_trigger_on_point_to_point_tasks(make_agent: MakeAgent, hub: Any) -> None:
    """Asynchronous sub-tasks may run point-to-point in the same session (hybrid mode)."""
    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid, session_id = group["id"], group["sessionId"]
    both = [{"agentId": a.agent_id, "mode": "group"}, {"agentId": a.agent_id, "mode": "p2p"}]
    patched = await leader.request("PATCH", f"/v1/sessions/{session_id}", json={"receivers": both})
    assert patched.status_code == 200, patched.text
    p2p = f"/v1/sessions/{session_id}/messages"
    start = command(str(leader.agent_id), "start", task_id="t-p2p", partnerId=a.agent_id)
    assert (await leader.request("POST", p2p, json=start)).status_code == 201
    made = await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-p2p"]})
    assert made.status_code == 201
    assert (
        await a.request("POST", p2p, json=result(str(a.agent_id), "t-p2p", "rejected"))
    ).status_code == 201
    assert len(await fired_events(hub, gid)) == 1


async def test_trigger_timeout_fires_once_across_a_restart(
    make_agent: MakeAgent, hub: Any, settings: Any
) -> None:
    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid = group["id"]
    await _start_only(leader, a, gid, "t-slow")
    made = await leader.request(
        "POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-slow"], "timeoutSeconds": 0.5}
    )
    assert made.status_code == 201
    # other hub processes on the same store, one after the other: it fires once
    fast = settings.model_copy(update={"trigger_poll_seconds": 0.05})
    for _ in range(2):
        second = create_app(fast)
        async with second.router.lifespan_context(second):
            await asyncio.sleep(1.0)
    fired = await fired_events(hub, gid)
    assert len(fired) == 1 and fired[0]["outcome"] == "timeout"
    assert fired[0]["tasks"] == [{"id": "t-slow", "state": "accepted"}]
    assert await count(hub, GroupTrigger, col(GroupTrigger.outcome) == "timeout") == 1


async def test_two_last_tasks_ending_at_once_fire_the_trigger_once(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    group = await team(leader, a, b)
    gid = group["id"]
    url = f"/v1/groups/{gid}/messages"
    rounds = 8
    for n in range(rounds):
        ids = (f"t-{n}-a", f"t-{n}-b")
        for partner, task_id in zip((a, b), ids, strict=True):
            await _start_only(leader, partner, gid, task_id)
            await partner.request(
                "POST", url, json=result(str(partner.agent_id), task_id, "working")
            )
        made = await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ids})
        assert made.status_code == 201
        answers = await asyncio.gather(
            a.request("POST", url, json=result(str(a.agent_id), ids[0], "failed")),
            b.request("POST", url, json=result(str(b.agent_id), ids[1], "failed")),
        )
        assert [r.status_code for r in answers] == [201, 201]
        fired = await fired_events(hub, gid)
        assert len(fired) == n + 1, f"round {n}: {len(fired) - n} firings"
        assert {t["state"] for t in fired[-1]["tasks"]} == {"failed"}


async def test_concurrent_moves_of_one_task_are_each_stored_or_409_never_500(
    make_agent: MakeAgent, hub: Any
) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    group = await team(leader, partner)
    url = f"/v1/groups/{group['id']}/messages"
    for rounds in range(5):
        task_id = f"t-race-{rounds}"
        start = command(str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id)
        assert (await leader.request("POST", url, json=start)).status_code == 201
        for state in ("accepted", "working"):
            posted = await partner.request(
                "POST", url, json=result(str(partner.agent_id), task_id, state)
            )
            assert posted.status_code == 201
        moves = [
            move
            for _ in range(3)  # each message its own id: none of them is a replay
            for move in (
                (partner, result(str(partner.agent_id), task_id, "awaiting-input")),
                (partner, result(str(partner.agent_id), task_id, "failed")),
                (leader, command(str(leader.agent_id), "cancel", task_id=task_id)),
                (partner, result(str(partner.agent_id), task_id, "awaiting-completion")),
            )
        ]
        answers = await asyncio.gather(
            *(agent.request("POST", url, json=body) for agent, body in moves)
        )
        codes = [a.status_code for a in answers]
        assert set(codes) <= {201, 202, 409}, [a.text for a in answers if a.status_code >= 500]
        task = (await leader.request("GET", f"/v1/tasks/{task_id}")).json()
        # the history is a legal chain of stored moves; every refused one left it alone
        assert len(task["statusHistory"]) <= 2 + codes.count(201), (codes, task["statusHistory"])
        page = (await leader.request("GET", url, params={"limit": 500})).json()["items"]
        stored = [m for m in page if m.get("taskId") == task_id]
        assert len(stored) == 3 + codes.count(201) + codes.count(202)


async def test_triggers_are_capped_per_task(make_agent: MakeAgent, hub: Any) -> None:
    from app.triggers.service import MAX_TRIGGERS_PER_TASK

    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid = group["id"]
    await _start_only(leader, a, gid, "t-many")
    url = f"/v1/groups/{gid}/triggers"
    for _ in range(MAX_TRIGGERS_PER_TASK):
        assert (await leader.request("POST", url, json={"taskIds": ["t-many"]})).status_code == 201
    over = problem(await leader.request("POST", url, json={"taskIds": ["t-many"]}), 409)
    assert over["type"].endswith("/too-many-triggers")


@pytest.fixture
def sweep_by_hand(settings: Any) -> None:
    """The hub's own timer sweeps at start, then not for a minute: the test sweeps (it raced
    the one-second timer, and lost one run in three)."""
    settings.trigger_poll_seconds = 60


async def test_a_ready_trigger_nobody_fired_is_fired_by_the_sweep(
    sweep_by_hand: None, make_agent: MakeAgent, hub: Any
) -> None:
    assert parts(hub).settings.trigger_poll_seconds == 60  # made with the fixture's settings
    from sqlalchemy import update

    from app.tasks.models import Task
    from app.triggers.service import fire_ready_sweep

    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid = group["id"]
    await _start_only(leader, a, gid, "t-stopped")
    made = await leader.request(
        "POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-stopped"]}
    )
    assert made.status_code == 201
    # the task ended, and the process stopped before it fired the trigger
    async with parts(hub).session_factory() as db:
        await db.exec(update(Task).where(col(Task.id) == "t-stopped").values(state="failed"))
        await db.commit()
    assert await fired_events(hub, gid) == []
    factory = parts(hub).session_factory
    assert await fire_ready_sweep(factory) == 1
    assert await fire_ready_sweep(factory) == 0  # once
    (fired,) = await fired_events(hub, gid)
    assert fired["triggerId"] == made.json()["id"]


async def test_task_messages_do_not_show_another_groups_posts(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A member of group A lists task T's messages: a post in group B (A's member is not in
    B) naming T is refused (T is A's task), and nothing of B's is among them."""
    leader, a, b = [await make_agent(n) for n in ("leader", "a", "b")]
    sid = await open_session(leader, a, b)
    lid = str(leader.agent_id)
    ga = (await create_group(leader, sid, inviteIds=[a.agent_id]))["id"]
    gb = (await create_group(leader, sid, inviteIds=[b.agent_id]))["id"]
    for member, gid in ((a, ga), (b, gb)):
        url = f"/v1/groups/{gid}/invitations/{member.agent_id}/accept"
        assert (await member.request("POST", url)).status_code == 200
    start = command(lid, "start", task_id="t-1", partnerId=a.agent_id)
    assert (
        await leader.request("POST", f"/v1/groups/{ga}/messages", json=start)
    ).status_code == 201
    before = await count(hub, StoredMessage)
    secret = chat(lid, "B's private word about t-1", taskId="t-1")
    refused = await leader.request("POST", f"/v1/groups/{gb}/messages", json=secret)
    assert problem(refused, 409)["type"].endswith("/task-elsewhere")
    assert await count(hub, StoredMessage) == before
    aside = chat(lid, "B's word", taskId="t-2")  # no such task: kept, with B's group
    assert (
        await leader.request("POST", f"/v1/groups/{gb}/messages", json=aside)
    ).status_code == 201
    listed = await a.request("GET", f"/v1/sessions/{sid}/tasks/t-1/messages")
    assert listed.status_code == 200, listed.text
    assert [m["id"] for m in listed.json()["items"]] == [start["id"]]


async def _conclude(leader: Any, gid: str) -> None:
    moved = await leader.request(
        "PATCH", f"/v1/groups/{gid}", json={"conversationState": "conclusion"}
    )
    assert moved.status_code == 200, moved.text


async def _kinds(hub: Any, gid: str) -> list[str]:
    from sqlmodel import select

    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(GroupEvent.kind)
            .where(col(GroupEvent.group_id) == gid)
            .order_by(col(GroupEvent.seq))
        )
        return list(rows.all())


async def test_conclusion_is_the_groups_last_event_even_when_the_session_closes_later(
    make_agent: MakeAgent, hub: Any
) -> None:
    """The conclusion releases the group's open tasks (task.released before its state
    event); the session's later close appends nothing to the concluded group."""
    leader, a = await make_agent("leader"), await make_agent("a")
    group = await team(leader, a)
    gid, sid = group["id"], group["sessionId"]
    await _start_only(leader, a, gid, "t-1")
    await _conclude(leader, gid)
    kinds = await _kinds(hub, gid)
    assert kinds[-1] == "state" and "task.released" in kinds
    task = await leader.request("GET", "/v1/tasks/t-1", params={"sessionId": sid})
    assert task.json()["releasedAt"]
    closed = await leader.request("PATCH", f"/v1/sessions/{sid}", json={"state": "closed"})
    assert closed.status_code == 200, closed.text
    assert await _kinds(hub, gid) == kinds


async def test_a_pending_trigger_does_not_fire_into_a_concluded_group(
    make_agent: MakeAgent, hub: Any
) -> None:
    """The conclusion cancels the group's pending triggers: neither their deadline nor their
    tasks' end fires them after the conclusion's state event, the group's last."""
    from sqlalchemy import update

    from app.tasks.models import Task
    from app.triggers.service import fire_due_triggers, fire_ready_sweep

    leader, a = await make_agent("leader"), await make_agent("a")
    gid = (await team(leader, a))["id"]
    await _start_only(leader, a, gid, "t-1")
    url = f"/v1/groups/{gid}/triggers"
    made = await leader.request("POST", url, json={"taskIds": ["t-1"], "timeoutSeconds": 0.1})
    assert made.status_code == 201, made.text
    await _conclude(leader, gid)
    kinds = await _kinds(hub, gid)
    await asyncio.sleep(0.2)  # past its deadline
    async with parts(hub).session_factory() as db:
        await db.exec(update(Task).where(col(Task.id) == "t-1").values(state="failed"))
        await db.commit()
    assert await fire_due_triggers(parts(hub).session_factory) == 0
    assert await fire_ready_sweep(parts(hub).session_factory) == 0
    assert await _kinds(hub, gid) == kinds
    (view,) = (await leader.request("GET", url)).json()["items"]
    assert view["outcome"] == "cancelled" and view["firedAt"]
