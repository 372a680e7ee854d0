"""GB/Z Fig. 5 step 10 and Fig. 6 steps 18-24 at a live hub: closing a session releases its
open tasks (``task.released`` in the partner's and the leader's inbox streams, and in the
task's group stream) and concludes its groups; what ended stays as it was."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from sqlmodel import col, select

from agenthub import HubClient
from agenthub.events import EventStream, HubEvent
from app.config import Settings
from app.core.models import StoredMessage
from app.groups.models import Group, GroupEvent, GroupMember
from app.inbox.models import InboxEvent
from tests.support import LOOPBACK
from tests.support.groups import count
from tests.support.hub import OPERATOR_TOKEN, problem
from tests.support.live import LiveServer
from tests.support.messages import chat, command, now, result
from tests.support.parts import parts
from tests.support.sessions import MakeClient, got, grouped, live_hub, new_session, p2p, posted

WAIT_SECONDS = 60  # a hang bound, not a speed one


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[tuple[LiveServer, MakeClient]]:
    async with live_hub(settings) as hub:
        yield hub


async def collect(stream: EventStream, kinds: set[str], want: int) -> list[HubEvent]:
    """The first ``want`` events of ``kinds`` (others are skipped), within the time bound."""
    got_: list[HubEvent] = []

    async def run() -> None:
        async for event in stream:
            if event.kind in kinds:
                got_.append(event)
                if len(got_) == want:
                    stream.close()
                    return

    await asyncio.wait_for(run(), WAIT_SECONDS)
    return got_


async def close(leader: HubClient, session_id: str) -> None:
    response = await leader.request("PATCH", f"/v1/sessions/{session_id}", json={"state": "closed"})
    assert response.status_code == 200, response.text
    assert response.json()["state"] == "closed"


async def test_closing_a_session_releases_its_open_tasks(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, partner = await make("leader"), await make("partner")
    session = await new_session(leader, p2p(partner))
    sid, lid, pid = session["id"], str(leader.agent_id), str(partner.agent_id)
    path = f"/v1/sessions/{sid}/messages"
    for task_id in ("t-new", "t-busy", "t-no"):
        await posted(leader, path, command(lid, "start", task_id=task_id, partnerId=pid))
    await posted(partner, path, result(pid, "t-busy", "accepted"))
    await posted(partner, path, result(pid, "t-busy", "working"))
    await posted(partner, path, result(pid, "t-no", "rejected"))
    before_close = now()
    told = asyncio.create_task(collect(partner.inbox(), {"task.released"}, 2))
    await close(leader, sid)
    released = await told
    assert [(e.data["taskId"], e.data["state"]) for e in released] == [
        ("t-new", "submitted"),
        ("t-busy", "working"),
    ]
    assert {e.data["reason"] for e in released} == {"session-closed"}
    leader_told = await collect(leader.inbox(), {"task.released"}, 2)
    assert [e.data for e in leader_told] == [e.data for e in released]
    tasks = {t["id"]: t for t in (await got(leader, "/v1/tasks", sessionId=sid))["items"]}
    assert tasks["t-new"]["state"] == "submitted" and tasks["t-new"]["releasedAt"]
    assert tasks["t-busy"]["state"] == "working" and tasks["t-busy"]["releasedAt"]
    assert tasks["t-no"]["releasedAt"] is None  # it had ended
    # closing again releases nothing more; a move made before the close still goes in
    events = await count(server.app, InboxEvent)
    await close(leader, sid)
    assert await count(server.app, InboxEvent) == events
    late = result(pid, "t-busy", "awaiting-completion", sentAt=before_close)
    await posted(partner, path, late)
    task = await got(leader, "/v1/tasks/t-busy")
    assert task["state"] == "awaiting-completion" and task["releasedAt"]
    problem(await leader.request("POST", path, json=chat(lid, "anyone?")), 409)


async def test_closing_a_session_concludes_its_groups_and_releases_their_tasks(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, member = await make("leader"), await make("member")
    session = await new_session(leader, grouped(member))
    sid, lid, mid = session["id"], str(leader.agent_id), str(member.agent_id)
    group = await leader.groups.create(sid, "team", invite=[mid])
    await member.groups.accept(group.id)
    sub = await member.groups.create(sid, "sub", parent_group_id=group.id)
    start = command(lid, "start", task_id="t-g", partnerId=mid)
    await posted(leader, f"/v1/groups/{group.id}/messages", start)
    heard = asyncio.create_task(
        collect(member.groups.events(group.id), {"task.released", "state"}, 2)
    )
    await close(leader, sid)
    events = await heard
    assert [e.kind for e in events] == ["task.released", "state"]
    assert (events[0].data["taskId"], events[0].data["groupId"]) == ("t-g", group.id)
    assert (events[1].data["state"], events[1].data["reason"]) == (
        "conclusion",
        "the session closed",
    )
    async with parts(server.app).session_factory() as db:
        rows = await db.exec(select(Group.id, Group.conversation_state))
        assert dict(rows.all()) == {group.id: "conclusion", sub.id: "conclusion"}
        members = await db.exec(
            select(GroupMember.group_id, GroupMember.agent_id, GroupMember.state).where(
                col(GroupMember.group_id).in_([group.id, sub.id])
            )
        )
        assert sorted(members.all()) == sorted(
            [(group.id, lid, "released"), (group.id, mid, "released"), (sub.id, mid, "released")]
        )
    assert (await got(member, "/v1/tasks/t-g"))["releasedAt"]
    stored = await count(server.app, StoredMessage)
    group_events = await count(server.app, GroupEvent)
    refused = await member.request(
        "POST", f"/v1/groups/{group.id}/messages", json=chat(mid, "hi", role="partner")
    )
    # its released members still read the record; a post is refused as the group concluded
    assert problem(refused, 409)["type"].endswith("/group-concluded")
    assert await count(server.app, StoredMessage) == stored
    assert await count(server.app, GroupEvent) == group_events


async def test_a_deregistered_leaders_sessions_are_released(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, partner = await make("leader"), await make("partner")
    session = await new_session(leader, p2p(partner))
    lid, pid = str(leader.agent_id), str(partner.agent_id)
    path = f"/v1/sessions/{session['id']}/messages"
    await posted(leader, path, command(lid, "start", task_id="t-left", partnerId=pid))
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=server.url) as operator:
        gone = await operator.delete(
            f"/v1/agents/{lid}", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        )
        assert gone.status_code == 204, gone.text
    told = await collect(partner.inbox(), {"task.released"}, 1)
    assert (told[0].data["taskId"], told[0].data["state"]) == ("t-left", "submitted")
    task = await got(partner, "/v1/tasks/t-left")
    assert task["releasedAt"]
