"""Speaker selection on a live hub: IoA's ``next_speaker`` (wire ``nextSpeaker``) on group
messages, and the ``turns`` speaking policy's floor, enforced and timed out by the hub."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlmodel import col

from agenthub import HubClient
from agenthub.events import EventStream, HubEvent
from agenthub.protocol.messages import MAX_NEXT_SPEAKERS, parse_message
from app.config import Settings
from app.core.models import StoredMessage
from app.errors import HubError
from app.groups.models import GroupEvent
from app.main import create_app
from app.records.record import Record
from tests.support.groups import STREAM_SETTINGS, MakeMember, count, team
from tests.support.hub import empty_tables, problem
from tests.support.live import LiveServer
from tests.support.messages import chat, command, result
from tests.support.parts import parts

WAIT_SECONDS = 60  # a hang bound, not a speed one


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[LiveServer]:
    """The groups' live hub, with its timer (trigger deadlines, turn timeouts) run often."""
    fast = settings.model_copy(update={**STREAM_SETTINGS, "trigger_poll_seconds": 0.05})
    server = await LiveServer(create_app(fast)).start()
    try:
        yield server
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


def say(agent: HubClient, words: str, **extra: Any) -> dict[str, Any]:
    role = extra.pop("role", "partner")
    return chat(str(agent.agent_id), words, role=role, **extra)


async def send(agent: HubClient, gid: str, body: dict[str, Any]) -> httpx.Response:
    return await agent.request("POST", f"/v1/groups/{gid}/messages", json=body)


def not_your_turn(response: httpx.Response) -> None:
    assert problem(response, 409)["type"].endswith("/not-your-turn"), response.text


async def floor(agent: HubClient, gid: str) -> dict[str, Any]:
    view = (await agent.request("GET", f"/v1/groups/{gid}")).json()
    return dict(view["floor"])


async def floor_events(hub: Any, gid: str) -> list[dict[str, Any]]:
    from sqlmodel import select

    async with parts(hub).session_factory() as db:
        rows = await db.exec(
            select(GroupEvent.data)
            .where(col(GroupEvent.group_id) == gid, col(GroupEvent.kind) == "floor")
            .order_by(col(GroupEvent.seq))
        )
        return [dict(d) for d in rows.all()]


async def test_next_speaker_is_stored_and_checked(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b, outsider = [await make_member(n) for n in ("leader", "a", "b", "x")]
    group = await team(leader, a, b)
    gid = group["id"]
    named = await send(
        leader, gid, say(leader, "a, then?", role="leader", nextSpeaker=[a.agent_id])
    )
    assert named.status_code == 201, named.text
    assert named.json()["nextSpeaker"] == [a.agent_id]
    history = (await b.request("GET", f"/v1/groups/{gid}/messages")).json()["items"]
    assert history[-1]["nextSpeaker"] == [a.agent_id]
    # under the free policy it is advice: the floor stays open, b may speak
    assert await floor(leader, gid) == {"speakers": None, "deadline": None}
    assert (await send(b, gid, say(b, "me first"))).status_code == 201
    before = await count(live.app, StoredMessage)
    too_many = [f"agent-{i}" for i in range(MAX_NEXT_SPEAKERS + 1)]
    for speakers in ([outsider.agent_id], [], too_many):
        problem(await send(a, gid, say(a, "you", nextSpeaker=speakers)), 422)
    # nor is there a next speaker point to point
    p2p = f"/v1/sessions/{group['sessionId']}/messages"
    aside = say(leader, "a?", role="leader", nextSpeaker=[a.agent_id])
    problem(await leader.request("POST", p2p, json=aside), 422)
    assert await count(live.app, StoredMessage) == before
    assert await floor_events(live.app, gid) == []


async def test_turns_let_only_the_named_speakers_post(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    group = await team(leader, a, b, speakingPolicy="turns", turnTimeoutSeconds=300)
    gid = group["id"]
    assert group["speakingPolicy"] == "turns" and group["turnTimeoutSeconds"] == 300
    # an open floor: anyone speaks; the owner names a
    assert (await send(b, gid, say(b, "hello"))).status_code == 201
    await leader.groups.post(gid, "a, your view?", role="leader", next_speaker=[a.agent_id])
    held = await floor(leader, gid)
    assert held["speakers"] == [a.agent_id]
    deadline = datetime.fromisoformat(held["deadline"])
    assert 290 < (deadline - datetime.now(UTC)).total_seconds() <= 300
    before = await count(live.app, StoredMessage)
    not_your_turn(await send(b, gid, say(b, "but I")))
    assert await count(live.app, StoredMessage) == before
    # the chair may always break in, without taking the floor from a
    assert (await send(leader, gid, say(leader, "go on", role="leader"))).status_code == 201
    assert (await floor(leader, gid))["speakers"] == [a.agent_id]
    # a speaks, naming no one: the floor opens
    assert (await send(a, gid, say(a, "my view"))).status_code == 201
    assert await floor(leader, gid) == {"speakers": None, "deadline": None}
    # whoever may speak may name: a names b; then only b (and the owner)
    assert (await send(a, gid, say(a, "b?", nextSpeaker=[b.agent_id]))).status_code == 201
    not_your_turn(await send(a, gid, say(a, "and also")))
    passed = await send(b, gid, say(b, "then a and you", nextSpeaker=[a.agent_id, leader.agent_id]))
    assert passed.status_code == 201
    not_your_turn(await send(b, gid, say(b, "again")))
    moves = [(e.get("speakers"), e["reason"], e["by"]) for e in await floor_events(live.app, gid)]
    assert moves == [
        ([a.agent_id], "named", leader.agent_id),
        (None, "spoke", a.agent_id),
        ([b.agent_id], "named", a.agent_id),
        ([a.agent_id, leader.agent_id], "named", b.agent_id),
    ]


async def test_task_reports_pass_the_floor(make_member: MakeMember, live: LiveServer) -> None:
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    gid = (await team(leader, a, b, speakingPolicy="turns"))["id"]
    start = command(str(leader.agent_id), "start", task_id="t-b", partnerId=b.agent_id)
    assert (await send(leader, gid, {**start, "nextSpeaker": [a.agent_id]})).status_code == 201
    # b's report on its task is no turn: it goes in, and leaves the floor to a
    assert (await send(b, gid, result(str(b.agent_id), "t-b", "accepted"))).status_code == 201
    assert (await floor(leader, gid))["speakers"] == [a.agent_id]
    # but a report may not name the next speakers for a floor that is not its sender's
    naming = {**result(str(b.agent_id), "t-b", "working"), "nextSpeaker": [b.agent_id]}
    not_your_turn(await send(b, gid, naming))


async def test_a_silent_speaker_does_not_stall_the_group(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, silent, b = [await make_member(n) for n in ("leader", "silent", "b")]
    gid = (await team(leader, silent, b, speakingPolicy="turns", turnTimeoutSeconds=0.5))["id"]
    await leader.groups.post(gid, "silent?", role="leader", next_speaker=[silent.agent_id])
    not_your_turn(await send(b, gid, say(b, "can I")))

    async def floor_opened(stream: EventStream) -> HubEvent:
        async for event in stream:
            if event.kind == "floor" and event.data["reason"] == "timeout":
                stream.close()
                return event
        raise AssertionError("the stream ended first")

    # b only listens: the hub opens the floor by itself when the turn times out
    opened = await asyncio.wait_for(floor_opened(b.groups.events(gid)), WAIT_SECONDS)
    assert "speakers" not in opened.data and "by" not in opened.data  # open; by the hub
    assert await floor(leader, gid) == {"speakers": None, "deadline": None}
    assert (await send(b, gid, say(b, "then I will"))).status_code == 201
    reasons = [e["reason"] for e in await floor_events(live.app, gid)]
    assert reasons == ["named", "timeout"]  # once


async def test_speaking_policy_is_the_managers_to_set(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, a = await make_member("leader"), await make_member("a")
    gid = (await team(leader, a))["id"]
    url = f"/v1/groups/{gid}"
    problem(await a.request("PATCH", url, json={"speakingPolicy": "turns"}), 403)
    for bad in ({"speakingPolicy": "chaos"}, {"speakingPolicy": None}, {"turnTimeoutSeconds": 0}):
        problem(await leader.request("PATCH", url, json=bad), 422)
    view = await leader.groups.set_speaking(gid, "turns", turn_timeout_seconds=120)
    assert (view.speaking_policy, view.turn_timeout_seconds) == ("turns", 120)
    await leader.groups.post(gid, "a?", role="leader", next_speaker=[a.agent_id])
    # back to free: the floor opens, as an event
    view = await leader.groups.set_speaking(gid, "free")
    assert view.floor.speakers is None and view.floor.deadline is None
    reasons = [(e["reason"], e.get("speakers")) for e in await floor_events(live.app, gid)]
    assert reasons == [("named", [a.agent_id]), ("policy", None)]
    assert (await send(leader, gid, say(leader, "anyone", role="leader"))).status_code == 201


async def test_a_floor_moved_in_a_batch_binds_the_rest_of_it(
    make_member: MakeMember, live: LiveServer
) -> None:
    """The batch writer reads the floor once; a post that moves it moves it for the posts
    after it in the same transaction."""
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    gid = (await team(leader, a, b, speakingPolicy="turns"))["id"]

    def record(agent: HubClient, body: dict[str, Any]) -> Record:
        message = parse_message(body)
        return Record(str(agent.agent_id), agent.key.thumbprint, message, group_id=gid)

    app: Any = live.app
    ingest = parts(app).ingest
    batches = ingest.batches
    outcomes = await ingest.many(
        [
            record(b, say(b, "open floor")),
            record(leader, say(leader, "a, please", role="leader", nextSpeaker=[a.agent_id])),
            record(b, say(b, "me too")),
            record(a, say(a, "done")),
            record(b, say(b, "now me")),
        ]
    )
    assert ingest.batches == batches + 1
    statuses = [o.status if isinstance(o, HubError) else o[1] for o in outcomes]
    assert statuses == [201, 201, 409, 201, 201]
    assert await floor(leader, gid) == {"speakers": None, "deadline": None}


async def test_a_speaker_who_leaves_does_not_hold_the_floor(
    make_member: MakeMember, live: LiveServer
) -> None:
    """Under turns the named speakers hold the floor until one posts or the timeout (up to
    24 h); one who leaves or is removed can do neither: it is taken off the floor, which
    opens (a ``floor`` event, reason left) once nobody is left holding it."""
    leader, a, b, c = [await make_member(n) for n in ("leader", "a", "b", "c")]
    gid = (await team(leader, a, b, c, speakingPolicy="turns", turnTimeoutSeconds=3600))["id"]
    named = say(leader, "a, b?", role="leader", nextSpeaker=[a.agent_id, b.agent_id])
    assert (await send(leader, gid, named)).status_code == 201
    left = await a.request("DELETE", f"/v1/groups/{gid}/members/{a.agent_id}")
    assert left.status_code == 200, left.text
    assert (await floor(c, gid))["speakers"] == [b.agent_id]
    not_your_turn(await send(c, gid, say(c, "me?")))
    removed = await leader.request("DELETE", f"/v1/groups/{gid}/members/{b.agent_id}")
    assert removed.status_code == 200, removed.text
    assert (await floor(c, gid))["speakers"] is None
    moves = await count(
        live.app, GroupEvent, col(GroupEvent.group_id) == gid, col(GroupEvent.kind) == "floor"
    )
    assert moves == 3  # named, a left, b removed
    assert (await send(c, gid, say(c, "hi"))).status_code == 201


async def test_a_speaker_cannot_name_itself_to_keep_the_floor(
    make_member: MakeMember, live: LiveServer
) -> None:
    """Under turns a named speaker naming itself again would hold the floor for ever: it is
    refused (422 self-named-speaker), nothing stored, the floor unmoved."""
    leader, a, b = [await make_member(n) for n in ("leader", "a", "b")]
    gid = (await team(leader, a, b, speakingPolicy="turns"))["id"]
    named = say(leader, "a?", role="leader", nextSpeaker=[a.agent_id])
    assert (await send(leader, gid, named)).status_code == 201
    before = await count(live.app, StoredMessage)
    again = await send(a, gid, say(a, "me again", nextSpeaker=[a.agent_id, b.agent_id]))
    assert problem(again, 422)["type"].endswith("/self-named-speaker")
    assert await count(live.app, StoredMessage) == before
    assert (await floor(b, gid))["speakers"] == [a.agent_id]
    passed = await send(a, gid, say(a, "b, go", nextSpeaker=[b.agent_id]))
    assert passed.status_code == 201, passed.text
