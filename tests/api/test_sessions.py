"""Sessions and their message history: participants only, idempotent posts, bound senders."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from agenthub import HubClient
from app.core.models import StoredMessage
from app.sessions.models import Session
from tests.support.groups import team
from tests.support.hub import MakeAgent, problem
from tests.support.messages import chat
from tests.support.parts import parts


async def count(hub: Any, model: Any) -> int:
    async with parts(hub).session_factory() as db:
        return int(await db.scalar(select(func.count()).select_from(model)) or 0)


async def open_session(leader: HubClient, *partners: HubClient, **extra: Any) -> dict[str, Any]:
    body = {
        "title": "tour",
        "goal": "test",
        **extra,
        "receivers": [{"agentId": p.agent_id, "mode": "p2p"} for p in partners],
    }
    response = await leader.request("POST", "/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_create_session_with_receivers_and_addresses(make_agent: MakeAgent) -> None:
    leader = await make_agent("leader", endpointUrl="http://127.0.0.1:9001/aip")
    partner = await make_agent("partner", endpointUrl="http://127.0.0.1:9002/aip")
    helper = await make_agent("helper")
    body = {
        "receivers": [
            {"agentId": partner.agent_id, "mode": "p2p", "params": {"method": "rpc"}},
            {"agentId": helper.agent_id, "mode": "group"},
        ]
    }
    response = await leader.request("POST", "/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    session = response.json()
    assert session["id"].startswith("ses-") and session["state"] == "open"
    assert session["sender"] == {"agentId": leader.agent_id, "address": "http://127.0.0.1:9001/aip"}
    assert session["receivers"] == [
        {
            "agentId": partner.agent_id,
            "address": "http://127.0.0.1:9002/aip",
            "mode": "p2p",
            "params": {"method": "rpc"},
        },
        {"agentId": helper.agent_id, "address": None, "mode": "group", "params": None},
    ]
    assert response.headers["location"] == f"/v1/sessions/{session['id']}"


async def test_leader_chosen_id_and_409_when_taken(make_agent: MakeAgent, hub: Any) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    first = await open_session(leader, partner, id="ses-mine")
    assert first["id"] == "ses-mine"
    again = await leader.request("POST", "/v1/sessions", json={"id": "ses-mine", "receivers": []})
    problem(again, 409)
    assert await count(hub, Session) == 1


async def test_bad_receivers_are_422(make_agent: MakeAgent, hub: Any) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    for receivers in (
        [{"agentId": "1.2.156.3088.1.AGH.NOBODY"}],
        [{"agentId": partner.agent_id}, {"agentId": partner.agent_id}],
        [{"agentId": leader.agent_id}],
        [{"agentId": partner.agent_id, "mode": "broadcast"}],
        [{"mode": "p2p"}],
    ):
        problem(await leader.request("POST", "/v1/sessions", json={"receivers": receivers}), 422)
    assert await count(hub, Session) == 0


async def test_only_participants_see_a_session(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    stranger = await make_agent("stranger")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}"
    assert (await partner.request("GET", path)).json()["id"] == session["id"]
    problem(await stranger.request("GET", path), 404)
    problem(await stranger.request("GET", f"{path}/messages"), 404)
    problem(
        await stranger.request(
            "POST", f"{path}/messages", json=chat(stranger.agent_id or "", "hi")
        ),
        404,
    )
    problem(await stranger.request("PATCH", path, json={"title": "mine"}), 404)
    listed = (await stranger.request("GET", "/v1/sessions")).json()
    assert listed["items"] == []
    assert [s["id"] for s in (await partner.request("GET", "/v1/sessions")).json()["items"]] == [
        session["id"]
    ]


async def test_only_the_leader_patches_and_closed_stays_closed(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}"
    problem(await partner.request("PATCH", path, json={"state": "closed"}), 403)
    patched = (await leader.request("PATCH", path, json={"title": "renamed"})).json()
    assert patched["title"] == "renamed"
    closed = (await leader.request("PATCH", path, json={"state": "closed"})).json()
    assert closed["state"] == "closed" and closed["closedAt"]
    problem(await leader.request("PATCH", path, json={"state": "open"}), 409)
    problem(
        await leader.request("POST", f"{path}/messages", json=chat(leader.agent_id or "", "late")),
        409,
    )
    problem(await leader.request("PATCH", path, json={}), 400)
    listed = (await leader.request("GET", "/v1/sessions", params={"state": "closed"})).json()
    assert [s["id"] for s in listed["items"]] == [session["id"]]


async def test_post_is_idempotent_on_sender_and_id(make_agent: MakeAgent, hub: Any) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    message = chat(leader.agent_id or "", "hello")
    first = await leader.request("POST", path, json=message)
    assert first.status_code == 201, first.text
    stored = first.json()
    assert stored["sessionId"] == session["id"] and stored["receivedAt"]
    again = await leader.request("POST", path, json=message)
    assert again.status_code == 200 and again.json() == stored
    # a record is its sender, id and content: another message under the id is one of its own
    changed = {**message, "dataItems": [{"type": "text", "text": "changed"}]}
    other_content = await leader.request("POST", path, json=changed)
    assert other_content.status_code == 201 and other_content.json()["id"] == message["id"]
    assert (await leader.request("POST", path, json=changed)).json() == other_content.json()
    # another sender may use the same id
    other = await partner.request(
        "POST", path, json=chat(partner.agent_id or "", "hi", role="partner", id=message["id"])
    )
    assert other.status_code == 201
    assert await count(hub, StoredMessage) == 3


async def test_an_id_its_sender_used_in_another_session_or_group_is_409(
    make_agent: MakeAgent, hub: Any
) -> None:
    """A record is its sender, id and content, in one place: the id in another session or
    group, with the same content or other, is refused (``message-id-reused``)."""
    leader, partner = await make_agent("leader"), await make_agent("partner")
    first, second = await open_session(leader, partner), await open_session(leader, partner)
    message = chat(leader.agent_id or "", "hello")
    changed = {**message, "dataItems": [{"type": "text", "text": "changed"}]}
    path = f"/v1/sessions/{first['id']}/messages"
    assert (await leader.request("POST", path, json=message)).status_code == 201
    group = await team(leader, partner)
    posted = chat(partner.agent_id or "", "in the group", role="partner")
    group_path = f"/v1/groups/{group['id']}/messages"
    assert (await partner.request("POST", group_path, json=posted)).status_code == 201
    other_group = await team(leader, partner)
    elsewhere = [
        (leader, f"/v1/sessions/{second['id']}/messages", message),
        (leader, f"/v1/sessions/{second['id']}/messages", changed),
        (leader, group_path, {**message, "groupId": group["id"]}),
        (partner, f"/v1/groups/{other_group['id']}/messages", posted),
        (partner, path, {**posted, "senderRole": "partner"}),
    ]
    for kit, url, body in elsewhere:
        refused = problem(await kit.request("POST", url, json=body), 409)
        assert refused["type"].endswith("/message-id-reused"), (url, refused)
    assert await count(hub, StoredMessage) == 2


async def test_sender_is_bound_to_the_caller(make_agent: MakeAgent, hub: Any) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    problem(await partner.request("POST", path, json=chat(leader.agent_id or "", "forged")), 403)
    assert await count(hub, StoredMessage) == 0


async def test_bad_messages_are_4xx_and_store_nothing(make_agent: MakeAgent, hub: Any) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    me = leader.agent_id or ""
    for body, status in (
        ({**chat(me, "x"), "dataItems": [{"type": "video", "uri": "x"}]}, 422),
        ({**chat(me, "x"), "type": "gossip"}, 422),
        ({**chat(me, "x"), "sentAt": "yesterday"}, 422),
        ({**chat(me, "x"), "sessionId": "ses-other"}, 422),
        ({**chat(me, "x"), "groupId": "g-1"}, 422),
        ({**chat(me, "x"), "id": ""}, 422),
        ({k: v for k, v in chat(me, "x").items() if k != "senderId"}, 422),
        ({**chat(me, "x"), "dataItems": [{"type": "text", "text": "a\x00b"}]}, 422),
    ):
        problem(await leader.request("POST", path, json=body), status)
    assert await count(hub, StoredMessage) == 0


async def test_history_is_oldest_first_and_pages(make_agent: MakeAgent) -> None:
    leader, partner = await make_agent("leader"), await make_agent("partner")
    session = await open_session(leader, partner)
    path = f"/v1/sessions/{session['id']}/messages"
    sent = []
    for i in range(5):
        kit, role = (leader, "leader") if i % 2 == 0 else (partner, "partner")
        body = chat(kit.agent_id or "", f"line {i}", role=role)
        assert (await kit.request("POST", path, json=body)).status_code == 201
        sent.append(body["id"])
    seen, after = [], None
    while True:
        params: dict[str, Any] = {"limit": 2}
        if after:
            params["after"] = after
        page = (await partner.request("GET", path, params=params)).json()
        seen += [m["id"] for m in page["items"]]
        after = page["nextCursor"]
        if after is None:
            break
    assert seen == sent
    problem(await partner.request("GET", path, params={"after": "bogus!"}), 400)
