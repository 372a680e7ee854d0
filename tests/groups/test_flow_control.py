"""IoA conversation flow control on a live hub: what each conversation state takes, from
whom (``agenthub.protocol.groups.POSTING``), and the release of a concluded group."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlmodel import col

from agenthub import HubClient
from agenthub.events import EventStream, HubEvent
from agenthub.protocol.groups import POSTING, ConversationState, PostKind
from app.core.models import StoredMessage
from app.groups.models import GroupEvent
from tests.support.groups import MakeMember, count, team
from tests.support.hub import problem
from tests.support.live import LiveServer, streams_open
from tests.support.messages import chat, command, result
from tests.support.parts import parts

WAIT_SECONDS = 30


async def send(agent: HubClient, gid: str, body: dict[str, Any]) -> httpx.Response:
    return await agent.request("POST", f"/v1/groups/{gid}/messages", json=body)


async def move(leader: HubClient, gid: str, *states: str) -> None:
    for state in states:
        moved = await leader.request(
            "PATCH", f"/v1/groups/{gid}", json={"conversationState": state}
        )
        assert moved.status_code == 200, moved.text


def refused(response: httpx.Response, code: str) -> None:
    body = problem(response, 409)
    assert body["type"].endswith(f"/{code}"), body


def talk(agent: HubClient, words: str, **extra: Any) -> dict[str, Any]:
    return chat(str(agent.agent_id), words, role="partner", **extra)


def start(leader: HubClient, task_id: str, partner: HubClient) -> dict[str, Any]:
    return command(str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id)


def test_the_posting_table_covers_every_state_and_kind() -> None:
    assert set(POSTING) == set(ConversationState)
    for state, rules in POSTING.items():
        assert set(rules) == set(PostKind), state
    assert POSTING[ConversationState.DISCUSSION][PostKind.MESSAGE] >= {"owner", "member"}
    assert not any(POSTING[ConversationState.CONCLUSION].values())


async def test_discussion_and_async_assignment_take_every_post(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a = await make_member("leader"), await make_member("a")
    gid = (await team(leader, a))["id"]
    for n, state in enumerate(("discussion", "async-task-assignment")):
        await move(leader, gid, state)
        assert (await send(a, gid, talk(a, f"said in {state}"))).status_code == 201
        assert (await send(leader, gid, start(leader, f"t-{n}", a))).status_code == 201
        report = result(str(a.agent_id), f"t-{n}", "accepted")
        assert (await send(a, gid, report)).status_code == 201


async def test_sync_task_assignment_waits_for_the_assignees(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    gid = (await team(leader, a, b))["id"]
    await move(leader, gid, "sync-task-assignment")
    assert (await send(leader, gid, start(leader, "t-a", a))).status_code == 201
    before = await count(live.app, StoredMessage)
    seq = (await leader.request("GET", f"/v1/groups/{gid}")).json()["lastSeq"]
    # b has no task: it waits; and only the owner (or an admin) assigns
    refused(await send(b, gid, talk(b, "meanwhile")), "not-allowed-in-state")
    refused(await send(b, gid, start(b, "t-b", a)), "not-allowed-in-state")
    assert await count(live.app, StoredMessage) == before
    assert (await leader.request("GET", f"/v1/groups/{gid}")).json()["lastSeq"] == seq
    # the assignee reports and may speak; the owner speaks
    assert (await send(a, gid, result(str(a.agent_id), "t-a", "accepted"))).status_code == 201
    assert (await send(a, gid, talk(a, "on it"))).status_code == 201
    assert (await send(leader, gid, chat(str(leader.agent_id), "thanks"))).status_code == 201
    # once its task is final, a is no assignee any more
    for state in ("working", "failed"):
        assert (await send(a, gid, result(str(a.agent_id), "t-a", state))).status_code == 201
    refused(await send(a, gid, talk(a, "one more")), "not-allowed-in-state")
    await move(leader, gid, "discussion")
    assert (await send(b, gid, talk(b, "my turn now"))).status_code == 201


async def test_discussion_post_refused_in_pause_and_trigger(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    gid = (await team(leader, a, b))["id"]
    for task_id, partner in (("t-a", a), ("t-b", b)):
        assert (await send(leader, gid, start(leader, task_id, partner))).status_code == 201
        accepted = result(str(partner.agent_id), task_id, "accepted")
        assert (await send(partner, gid, accepted)).status_code == 201
    await move(leader, gid, "async-task-assignment", "pause-and-trigger")
    made = await leader.request("POST", f"/v1/groups/{gid}/triggers", json={"taskIds": ["t-a"]})
    assert made.status_code == 201, made.text
    before = await count(live.app, StoredMessage)
    # the group waits for its trigger: no talk, no new task, nothing on other tasks
    for poster, body in (
        (leader, chat(str(leader.agent_id), "anyone?")),
        (a, talk(a, "hello")),
        (a, talk(a, "about t-a", taskId="t-a")),
        (leader, start(leader, "t-new", a)),
        (b, result(str(b.agent_id), "t-b", "working")),
    ):
        refused(await send(poster, gid, body), "not-allowed-in-state")
    assert await count(live.app, StoredMessage) == before
    # reports and commands on the paused task go in, and its end resumes the discussion
    assert (await send(a, gid, result(str(a.agent_id), "t-a", "working"))).status_code == 201
    cancel = command(str(leader.agent_id), "cancel", task_id="t-a")
    assert (await send(leader, gid, cancel)).status_code == 201
    view = (await leader.request("GET", f"/v1/groups/{gid}")).json()
    assert view["conversationState"] == "discussion"
    assert (await send(a, gid, talk(a, "hello again"))).status_code == 201


async def until_end(stream: EventStream) -> list[HubEvent]:
    """Every event of the stream, until the hub ends it (within the time bound)."""

    async def run() -> list[HubEvent]:
        return [event async for event in stream]

    return await asyncio.wait_for(run(), WAIT_SECONDS)


async def test_conclusion_releases_members_and_ends_streams(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b, invited = [await make_member(n) for n in ("leader", "a", "b", "invited")]
    group = await team(leader, a, b)
    gid = group["id"]
    asked = await leader.request(
        "POST", f"/v1/groups/{gid}/invitations", json={"agentId": invited.agent_id}
    )
    assert asked.status_code == 201, asked.text
    everyone = (leader, a, b)
    readers = [asyncio.create_task(until_end(m.groups.events(gid))) for m in everyone]
    await streams_open(live, len(everyone))
    await move(leader, gid, "conclusion")
    released = {m.agent_id for m in everyone}
    for member, reader in zip(everyone, readers, strict=True):
        events = await reader  # the hub ended it: the loop finished by itself
        tail = [(e.kind, e.data.get("agentId"), e.data["state"]) for e in events[-4:]]
        # each member released, as a member event, then the conclusion, the last event
        assert tail[-1] == ("state", None, "conclusion"), member.agent_id
        assert {t[1] for t in tail[:3]} == released
        assert all(t[0] == "member" and t[2] == "released" for t in tail[:3])
        assert events[-1].seq == events[-4].seq + 3
    members = (await leader.request("GET", f"/v1/groups/{gid}/members")).json()["items"]
    states = {m["agentId"]: m["state"] for m in members}
    assert states == {**dict.fromkeys(released, "released"), invited.agent_id: "invited"}
    # a released member keeps the record, up to its end, and may post no more
    before = await count(live.app, StoredMessage)
    late = await send(a, gid, talk(a, "too late"))
    refused(late, "group-concluded")
    assert await count(live.app, StoredMessage) == before
    replay = await until_end(a.groups.events(gid))
    assert replay[-1].kind == "state" and replay[-1].data["state"] == "conclusion"
    seen = await a.request("GET", f"/v1/groups/{gid}")
    assert seen.status_code == 200 and seen.json()["conversationState"] == "conclusion"
    events = await count(
        live.app,
        GroupEvent,
        col(GroupEvent.group_id) == gid,
        col(GroupEvent.kind) == "member",
        col(GroupEvent.subject_id) == a.agent_id,
    )
    assert events == 3  # invited, active, released


async def test_an_owner_leaving_the_hub_concludes_and_releases_its_group(
    make_member: MakeMember, live: LiveServer
) -> None:
    owner, a = await make_member("owner"), await make_member("a")
    gid = (await team(owner, a))["id"]
    reader = asyncio.create_task(until_end(a.groups.events(gid)))
    await streams_open(live, 1)
    await owner.deregister()
    events = await reader
    assert [(e.kind, e.data["state"]) for e in events[-3:]] == [
        ("member", "removed"),  # the owner, who left the hub
        ("member", "released"),  # a
        ("state", "conclusion"),
    ]
    members = (await a.request("GET", f"/v1/groups/{gid}/members")).json()["items"]
    assert {m["agentId"]: m["state"] for m in members} == {
        owner.agent_id: "removed",
        a.agent_id: "released",
    }


async def test_a_concluded_groups_task_takes_no_report_through_the_session_route(
    make_member: MakeMember, live: LiveServer
) -> None:
    """In conclusion the group takes nothing (POSTING); the partner reporting on the group's
    task through POST /v1/sessions/{id}/messages is refused too (task-elsewhere)."""
    leader, a = await make_member("leader"), await make_member("a")
    gid = (await team(leader, a))["id"]
    sid = (await leader.request("GET", f"/v1/groups/{gid}")).json()["sessionId"]
    start = command(str(leader.agent_id), "start", task_id="t-1", partnerId=a.agent_id)
    assert (await send(leader, gid, start)).status_code == 201
    moved = await leader.request(
        "PATCH", f"/v1/groups/{gid}", json={"conversationState": "conclusion"}
    )
    assert moved.status_code == 200, moved.text
    report = result(str(a.agent_id), "t-1", "accepted")
    assert problem(await send(a, gid, report), 409)["type"].endswith("/group-concluded")
    before = await count(live.app, StoredMessage)
    around = await a.request("POST", f"/v1/sessions/{sid}/messages", json=report)
    assert problem(around, 409)["type"].endswith("/task-elsewhere")
    assert await count(live.app, StoredMessage) == before
    task = await leader.request("GET", "/v1/tasks/t-1", params={"sessionId": sid})
    assert task.json()["state"] == "submitted"


async def test_a_post_admitted_before_the_conclusion_is_not_stored_after_it(
    make_member: MakeMember, live: LiveServer, monkeypatch: Any
) -> None:
    """PostgreSQL only (SQLite's BEGIN IMMEDIATE serialises this). The batch writer admits a
    post on a plain read of the group's state; a conclusion committed between that read and
    the post's seq is seen there: the post is refused (group-concluded), never stored after
    the conclusion's state event, the group's last."""
    import pytest

    from app.records import record

    if parts(live.app).settings.database_url.startswith("sqlite"):
        pytest.skip("SQLite's BEGIN IMMEDIATE holds the write lock from the first read")
    leader, a = await make_member("leader"), await make_member("a")
    gid = (await team(leader, a))["id"]
    read, go = asyncio.Event(), asyncio.Event()
    original = record.Standing.read.__func__  # type: ignore[attr-defined]

    async def slow_read(cls: Any, conn: Any, batch: Any) -> Any:
        standing = await original(cls, conn, batch)
        if any(r.group_id == gid for r in batch):
            read.set()
            await go.wait()
        return standing

    monkeypatch.setattr(record.Standing, "read", classmethod(slow_read))
    late = asyncio.create_task(send(a, gid, chat(str(a.agent_id), "x", role="partner")))
    await asyncio.wait_for(read.wait(), 10)
    moved = await leader.request(
        "PATCH", f"/v1/groups/{gid}", json={"conversationState": "conclusion"}
    )
    assert moved.status_code == 200, moved.text
    go.set()
    assert problem(await late, 409)["type"].endswith("/group-concluded")
    assert await count(live.app, StoredMessage, col(StoredMessage.group_id) == gid) == 0
