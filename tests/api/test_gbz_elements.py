"""GB/Z 185.6 content elements at a live hub: Data items in GB/Z's own form (Table 2), a
task's state and messages (Table 1 #5, Table 4), a session's context (Table 5), and hybrid
receivers whose declared modes bound who takes part how (§6.4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from acps_sdk.aip import aip_base_model as acps
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from agenthub.protocol.data import DataItem, GbzDataItem, to_aip, to_gbz
from app.config import Settings
from app.core.models import StoredMessage
from app.groups.models import GroupMember
from app.sessions.models import Session
from app.tasks.models import Task
from tests.support.groups import count
from tests.support.hub import problem
from tests.support.live import LiveServer
from tests.support.messages import chat, command, result
from tests.support.sessions import MakeClient, got, grouped, live_hub, new_session, p2p, posted

GBZ_ITEMS: list[dict[str, Any]] = [
    {"type": "text/plain", "metadata": {"lang": "en"}, "payload": "sqrt(9!)"},
    {"type": "application/json", "metadata": {"schema": "calc/v1"}, "payload": {"n": 9}},
    {"type": "image/png", "metadata": {"width": 1}, "payload": "aGVsbG8="},
    {"type": "application/json", "metadata": {}, "payload": [1, 2, 3]},
    {"type": "text/csv; charset=utf-8", "metadata": {"aip": {"x": 1}}, "payload": "a,b"},
]
BAD_ITEMS: list[dict[str, Any]] = [
    {"type": "image/png", "payload": "aGVsbG8="},  # no metadata
    {"type": "image/png", "metadata": {}},  # no payload
    {"type": "image/png", "metadata": {}, "payload": None},
    {"type": "picture", "metadata": {}, "payload": "x"},  # not a MIME type
    {"type": "text/plain", "metadata": "lang=en", "payload": "x"},  # metadata not an object
    {"type": "text/plain", "metadata": {}, "payload": "x", "extra": 1},
]
ACPS_TYPES = {"message": acps.Message, "task-command": acps.TaskCommand}
items = TypeAdapter(list[DataItem])
TEXT = st.text(alphabet="aAz09+/= é", max_size=8)
INT = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[tuple[LiveServer, MakeClient]]:
    async with live_hub(settings) as hub:
        yield hub


async def test_gbz_data_item_is_accepted_and_read_back(live: tuple[LiveServer, MakeClient]) -> None:
    server, make = live
    leader, partner = await make("leader"), await make("partner")
    session = await new_session(leader, p2p(partner))
    path = f"/v1/sessions/{session['id']}/messages"
    said = await posted(leader, path, chat(str(leader.agent_id), "x", dataItems=GBZ_ITEMS))
    start = command(str(leader.agent_id), "start", task_id="t-1", partnerId=partner.agent_id)
    await posted(leader, path, {**start, "dataItems": GBZ_ITEMS[:2]})
    # stored (and answered) as AIP items; each comes back out as the GB/Z item it was
    assert [i["type"] for i in said["dataItems"]] == ["text", "data", "file", "data", "text"]
    assert said["dataItems"][2]["mimeType"] == "image/png"
    stored = (await got(partner, path))["items"]
    assert [to_gbz(i).to_wire() for i in items.validate_python(stored[0]["dataItems"])] == GBZ_ITEMS
    # a peer that speaks only AIP reads every stored message with acps-sdk's own models
    for body in stored:
        parsed = ACPS_TYPES[body["type"]].model_validate(body)
        assert parsed.dataItems is not None and len(parsed.dataItems) == len(body["dataItems"])
    aip_start = acps.TaskCommand.model_validate(stored[1])
    assert [type(i) for i in aip_start.dataItems or []] == [
        acps.TextDataItem,
        acps.StructuredDataItem,
    ]
    assert await count(server.app, StoredMessage) == 2


async def test_bad_gbz_data_items_are_422_and_change_nothing(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, partner = await make("leader"), await make("partner")
    session = await new_session(leader, p2p(partner))
    path = f"/v1/sessions/{session['id']}/messages"
    for bad in BAD_ITEMS:
        body = command(str(leader.agent_id), "start", task_id="t", partnerId=partner.agent_id)
        answer = problem(await leader.request("POST", path, json={**body, "dataItems": [bad]}), 422)
        assert any(e["loc"][-3:-1] == ["0", "gbz"] for e in answer["errors"]), answer
    assert await count(server.app, StoredMessage) == 0
    assert await count(server.app, Task) == 0


@given(
    st.sampled_from(["text/plain", "application/json", "image/png", "a/b; q=1"]),
    st.dictionaries(st.sampled_from(["aip", "gbz", "k"]), INT | TEXT),
    TEXT
    | st.dictionaries(TEXT, INT, max_size=2)
    | st.lists(st.booleans(), max_size=2)
    | INT
    | st.sampled_from(["aGVsbG8=", "", "data"]),
)
def test_gbz_and_aip_items_map_to_each_other_losslessly(
    mime: str, metadata: dict[str, Any], payload: Any
) -> None:
    gbz = GbzDataItem(type=mime, metadata=metadata, payload=payload)
    assert to_gbz(to_aip(gbz)) == gbz
    for aip in items.validate_python(
        [
            {"type": "text", "text": str(payload), "metadata": metadata or None},
            {"type": "file", "uri": "https://x/r.pdf", "mimeType": mime, "name": "r"},
            {"type": "data", "data": {"v": payload}, "metadata": {"gbz": metadata}},
        ]
    ):
        assert to_aip(to_gbz(aip)) == aip


async def test_task_state_is_submitted_until_the_partners_first_answer(
    live: tuple[LiveServer, MakeClient],
) -> None:
    _, make = live
    leader, partner = await make("leader"), await make("partner")
    session = await new_session(leader, p2p(partner))
    path = f"/v1/sessions/{session['id']}/messages"
    start = command(str(leader.agent_id), "start", task_id="t-1", partnerId=partner.agent_id)
    await posted(leader, path, start)
    task = await got(leader, "/v1/tasks/t-1")
    assert (task["state"], task["status"]) == ("submitted", None)
    listed = await got(leader, "/v1/tasks", state="submitted")
    assert [t["id"] for t in listed["items"]] == ["t-1"]
    await posted(partner, path, result(str(partner.agent_id), "t-1", "accepted"))
    task = await got(partner, "/v1/tasks/t-1")
    assert task["state"] == task["status"]["state"] == "accepted"
    assert (await got(leader, "/v1/tasks", state="submitted"))["items"] == []
    # AIP wire objects keep AIP's states: a report saying "submitted" is no task status
    bad = result(str(partner.agent_id), "t-1", "submitted")
    problem(await partner.request("POST", path, json=bad), 422)


async def test_a_tasks_messages_are_listed_to_those_who_see_it(
    live: tuple[LiveServer, MakeClient],
) -> None:
    _, make = live
    leader, partner, other, stranger = [await make(n) for n in ("l", "p", "o", "s")]
    session = await new_session(leader, p2p(partner, other))
    sid, lid, pid = session["id"], str(leader.agent_id), str(partner.agent_id)
    path = f"/v1/sessions/{sid}/messages"
    sent = [
        await posted(leader, path, command(lid, "start", task_id="t-1", partnerId=pid)),
        await posted(partner, path, result(pid, "t-1", "accepted")),
        await posted(leader, path, chat(lid, "how is it going", taskId="t-1")),
    ]
    await posted(leader, path, command(lid, "start", task_id="t-2", partnerId=pid))
    await posted(leader, path, chat(lid, "no task"))
    messages = f"/v1/sessions/{sid}/tasks/t-1/messages"
    first = await got(other, messages, limit=2)  # another participant sees the task
    rest = await got(other, messages, limit=2, after=first["nextCursor"])
    assert [m["id"] for m in first["items"] + rest["items"]] == [m["id"] for m in sent]
    assert rest["nextCursor"] is None
    problem(await stranger.request("GET", messages), 404)
    problem(await leader.request("GET", f"/v1/sessions/{sid}/tasks/t-9/messages"), 404)
    problem(await leader.request("GET", messages, params={"after": "nonsense"}), 400)


async def test_a_session_exposes_its_context(live: tuple[LiveServer, MakeClient]) -> None:
    _, make = live
    leader, partner, stranger = await make("l"), await make("p"), await make("s")
    session = await new_session(leader, p2p(partner))
    sid, lid, pid = session["id"], str(leader.agent_id), str(partner.agent_id)
    path = f"/v1/sessions/{sid}/messages"
    ids = [(await posted(leader, path, chat(lid, "hello")))["id"]]
    for task_id in ("t-1", "t-2"):
        start = command(lid, "start", task_id=task_id, partnerId=pid)
        ids.append((await posted(leader, path, start))["id"])
    context = f"/v1/sessions/{sid}/context"
    first = await got(partner, context, limit=2)
    assert [m["id"] for m in first["messages"]["items"]] == ids[:2]
    assert [t["id"] for t in first["tasks"]["items"]] == ["t-1", "t-2"]
    assert first["tasks"]["items"][0]["state"] == "submitted"
    assert first["tasks"]["nextCursor"] is None
    more = await got(partner, context, limit=2, messagesAfter=first["messages"]["nextCursor"])
    assert [m["id"] for m in more["messages"]["items"]] == ids[2:]
    problem(await stranger.request("GET", context), 404)
    problem(await leader.request("GET", context, params={"tasksAfter": "nonsense"}), 400)


async def test_a_receiver_may_be_declared_in_both_modes(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, partner = await make("leader"), await make("partner")
    receivers = [
        {"agentId": partner.agent_id, "mode": "group", "params": {"role": "checker"}},
        {"agentId": partner.agent_id, "mode": "p2p", "params": {"method": "rpc"}},
    ]
    session = await new_session(leader, receivers)
    shown = [(r["agentId"], r["mode"], r["params"]) for r in session["receivers"]]
    assert shown == [
        (partner.agent_id, "p2p", {"method": "rpc"}),
        (partner.agent_id, "group", {"role": "checker"}),
    ]
    assert (await got(partner, f"/v1/sessions/{session['id']}"))["receivers"] == session[
        "receivers"
    ]
    # the same agent twice in one mode is still refused
    twice = {"receivers": [*receivers, receivers[1]]}
    problem(await leader.request("POST", "/v1/sessions", json=twice), 422)
    assert await count(server.app, Session) == 1


async def test_a_group_only_receiver_is_no_p2p_partner(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, grouper, both = await make("leader"), await make("grouper"), await make("both")
    receivers = grouped(grouper, both) + p2p(both)
    session = await new_session(leader, receivers)
    sid, lid = session["id"], str(leader.agent_id)
    path = f"/v1/sessions/{sid}/messages"
    start = command(lid, "start", task_id="t-1", partnerId=grouper.agent_id)
    refused = problem(await leader.request("POST", path, json=start), 422)
    assert refused["type"].endswith("/not-a-p2p-receiver")
    report = result(str(grouper.agent_id), "t-2", "accepted")
    refused = problem(await grouper.request("POST", path, json=report), 422)
    assert refused["type"].endswith("/not-a-p2p-receiver")
    assert await count(server.app, StoredMessage) == 0
    assert await count(server.app, Task) == 0
    # the hybrid receiver takes part point to point, and the group-only one in groups
    await posted(leader, path, command(lid, "start", task_id="t-3", partnerId=both.agent_id))
    group = await leader.groups.create(sid, "team", invite=[str(grouper.agent_id)])
    assert [m.agent_id for m in group.members if m.state == "invited"] == [grouper.agent_id]


async def test_a_p2p_only_receiver_is_not_placed_in_groups(
    live: tuple[LiveServer, MakeClient],
) -> None:
    server, make = live
    leader, direct, both = await make("leader"), await make("direct"), await make("both")
    undeclared = await make("helper")
    session = await new_session(leader, p2p(direct, both) + grouped(both))
    body = {"sessionId": session["id"], "name": "team", "inviteIds": [direct.agent_id]}
    refused = problem(await leader.request("POST", "/v1/groups", json=body), 422)
    assert refused["type"].endswith("/not-a-group-receiver")
    group = await leader.groups.create(session["id"], "team", invite=[str(both.agent_id)])
    members = await count(server.app, GroupMember)
    refused = problem(
        await leader.request(
            "POST", f"/v1/groups/{group.id}/invitations", json={"agentId": direct.agent_id}
        ),
        422,
    )
    assert refused["type"].endswith("/not-a-group-receiver")
    assert await count(server.app, GroupMember) == members
    # nor does it join an open group on its own; an agent the leader did not declare may
    open_group = await leader.groups.create(session["id"], "open", join_policy="open")
    joined = await direct.request("POST", f"/v1/groups/{open_group.id}/applications", json={})
    assert problem(joined, 422)["type"].endswith("/not-a-group-receiver")
    assert await count(server.app, GroupMember) == members + 1  # the open group's owner
    helper = await undeclared.request("POST", f"/v1/groups/{open_group.id}/applications", json={})
    assert helper.status_code in (200, 201), helper.text


async def test_a_session_without_receivers_sets_no_bounds(
    live: tuple[LiveServer, MakeClient],
) -> None:
    _, make = live
    leader, anyone = await make("leader"), await make("anyone")
    session = await new_session(leader, [])
    group = await leader.groups.create(session["id"], "open", invite=[str(anyone.agent_id)])
    assert any(m.agent_id == anyone.agent_id for m in group.members)


def test_a_gbz_mime_type_cannot_end_in_a_newline() -> None:
    """``$`` also matches before a final newline: "text/plain\\n" must not pass as a MIME
    type (it would be stored, and forwarded as a file's mimeType)."""
    with pytest.raises(ValidationError):
        GbzDataItem(type="text/plain\n", metadata={}, payload="x")
    assert GbzDataItem(type="text/plain", metadata={}, payload="x").type == "text/plain"


async def test_the_session_context_lists_only_the_tasks_the_caller_may_list(
    live: tuple[LiveServer, MakeClient],
) -> None:
    """The context lists the tasks ``GET /v1/tasks`` lists to the caller (those it leads or
    works on): a p2p-only receiver (§6.4: not placed in groups) does not enumerate a group's
    task, with its products, that it has no part in."""
    _, make = live
    leader, a, direct = await make("leader"), await make("a"), await make("direct")
    sid = (await new_session(leader, [*grouped(a), *p2p(direct)]))["id"]
    body = {"sessionId": sid, "name": "team", "inviteIds": [a.agent_id]}
    gid = (await posted(leader, "/v1/groups", body))["id"]
    await posted(a, f"/v1/groups/{gid}/invitations/{a.agent_id}/accept", {}, status=200)
    start = command(str(leader.agent_id), "start", task_id="t-g", partnerId=a.agent_id)
    await posted(leader, f"/v1/groups/{gid}/messages", start)
    mine = command(str(leader.agent_id), "start", task_id="t-p", partnerId=direct.agent_id)
    await posted(leader, f"/v1/sessions/{sid}/messages", mine)
    context = f"/v1/sessions/{sid}/context"
    own = (await got(direct, "/v1/tasks", sessionId=sid))["items"]
    assert [t["id"] for t in own] == ["t-p"]
    assert [t["id"] for t in (await got(direct, context))["tasks"]["items"]] == ["t-p"]
    assert [t["id"] for t in (await got(a, context))["tasks"]["items"]] == ["t-g"]
    assert [t["id"] for t in (await got(leader, context))["tasks"]["items"]] == ["t-g", "t-p"]
