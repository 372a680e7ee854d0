"""Forming a team: invitations, applications, open groups, operator groups, roles, mute, leave."""

from __future__ import annotations

from typing import Any

from sqlmodel import col

from app.groups.models import GroupEvent, GroupMember
from app.inbox.models import InboxEvent
from tests.support.groups import count, create_group, open_session, post, team
from tests.support.hub import MakeAgent, problem


def states(group: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {m["agentId"]: (m["role"], m["state"]) for m in group["members"]}


async def test_create_group_invites_and_accept(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    session_id = await open_session(leader, a, b)
    response = await leader.request(
        "POST",
        "/v1/groups",
        json={"sessionId": session_id, "name": "team", "goal": "g", "inviteIds": [a.agent_id]},
    )
    assert response.status_code == 201, response.text
    group = response.json()
    assert response.headers["location"] == f"/v1/groups/{group['id']}"
    assert group["conversationState"] == "discussion" and group["depth"] == 0
    assert group["joinPolicy"] == "invite" and group["ownerId"] == leader.agent_id
    assert states(group) == {
        leader.agent_id: ("owner", "active"),
        a.agent_id: ("member", "invited"),
    }
    # the invitation is in a's inbox, and both changes are group events
    assert await count(hub, InboxEvent, col(InboxEvent.agent_id) == a.agent_id) == 1
    assert group["lastSeq"] == 2

    gid = group["id"]
    # b was not invited: the group is invisible to it
    problem(await b.request("GET", f"/v1/groups/{gid}"), 404)
    problem(await b.request("POST", f"/v1/groups/{gid}/invitations/{b.agent_id}/accept"), 404)
    # nobody answers someone else's invitation
    problem(await b.request("POST", f"/v1/groups/{gid}/invitations/{a.agent_id}/accept"), 403)
    accepted = await a.request("POST", f"/v1/groups/{gid}/invitations/{a.agent_id}/accept")
    assert accepted.status_code == 200 and accepted.json()["state"] == "active"
    problem(await a.request("POST", f"/v1/groups/{gid}/invitations/{a.agent_id}/accept"), 409)
    # only managers invite
    problem(
        await a.request("POST", f"/v1/groups/{gid}/invitations", json={"agentId": b.agent_id}), 403
    )
    invited = await leader.request(
        "POST", f"/v1/groups/{gid}/invitations", json={"agentId": b.agent_id}
    )
    assert invited.status_code == 201 and invited.json()["state"] == "invited"
    declined = await b.request("POST", f"/v1/groups/{gid}/invitations/{b.agent_id}/decline")
    assert declined.json()["state"] == "declined"
    members = (await leader.request("GET", f"/v1/groups/{gid}/members")).json()["items"]
    assert {m["agentId"]: m["state"] for m in members} == {
        leader.agent_id: "active",
        a.agent_id: "active",
        b.agent_id: "declined",
    }


async def test_bad_group_creation_changes_nothing(make_agent: MakeAgent, hub: Any) -> None:
    leader, outsider = await make_agent("leader"), await make_agent("outsider")
    session_id = await open_session(leader)
    base = {"sessionId": session_id, "name": "team"}
    problem(await leader.request("POST", "/v1/groups", json={**base, "joinPolicy": "secret"}), 422)
    problem(await leader.request("POST", "/v1/groups", json={**base, "inviteIds": ["nobody"]}), 422)
    problem(await leader.request("POST", "/v1/groups", json={**base, "name": ""}), 422)
    problem(await leader.request("POST", "/v1/groups", json={**base, "extra": 1}), 422)
    problem(
        await leader.request("POST", "/v1/groups", json={**base, "ownerId": leader.agent_id}), 403
    )
    # not a participant of the session: it does not exist for the outsider
    problem(await outsider.request("POST", "/v1/groups", json=base), 404)
    problem(await leader.request("POST", "/v1/groups", json={**base, "sessionId": "nope"}), 404)
    closed = await leader.request("PATCH", f"/v1/sessions/{session_id}", json={"state": "closed"})
    assert closed.status_code == 200
    problem(await leader.request("POST", "/v1/groups", json=base), 409)
    assert await count(hub, GroupMember) == 0 and await count(hub, GroupEvent) == 0


async def test_apply_review_and_open_groups(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b, c = [await make_agent(n) for n in ("leader", "a", "b", "c")]
    session_id = await open_session(leader)
    applying = await create_group(leader, session_id, joinPolicy="apply")
    gid = applying["id"]
    applied = await a.request("POST", f"/v1/groups/{gid}/applications", json={"note": "I can help"})
    assert applied.status_code == 201 and applied.json()["state"] == "applied"
    assert applied.json()["note"] == "I can help"
    problem(await a.request("POST", f"/v1/groups/{gid}/applications", json={}), 409)
    # the owner finds the application in its inbox
    inbox = await count(
        hub,
        InboxEvent,
        col(InboxEvent.agent_id) == leader.agent_id,
        col(InboxEvent.kind) == "application",
    )
    assert inbox == 1
    # an applicant is not yet a member: no history, no posting
    problem(await a.request("GET", f"/v1/groups/{gid}/messages"), 403)
    problem(await b.request("POST", f"/v1/groups/{gid}/applications/{a.agent_id}/approve"), 404)
    approved = await leader.request("POST", f"/v1/groups/{gid}/applications/{a.agent_id}/approve")
    assert approved.status_code == 200 and approved.json()["state"] == "active"
    problem(await leader.request("POST", f"/v1/groups/{gid}/applications/{a.agent_id}/reject"), 409)
    await b.request("POST", f"/v1/groups/{gid}/applications")
    rejected = await leader.request("POST", f"/v1/groups/{gid}/applications/{b.agent_id}/reject")
    assert rejected.json()["state"] == "rejected"

    # an invite-only group takes no applications (and stays invisible)
    invite_only = await create_group(leader, session_id)
    problem(await c.request("POST", f"/v1/groups/{invite_only['id']}/applications"), 404)

    # an open group: anyone sees it and joins at once
    opened = await create_group(leader, session_id, joinPolicy="open")
    assert (await c.request("GET", f"/v1/groups/{opened['id']}")).status_code == 200
    problem(await c.request("GET", f"/v1/groups/{opened['id']}/messages"), 403)
    joined = await c.request("POST", f"/v1/groups/{opened['id']}/applications")
    assert joined.status_code == 201 and joined.json()["state"] == "active"
    await post(c, opened["id"], "hello")


async def test_operator_configures_a_group(
    make_agent: MakeAgent, hub: Any, operator_headers: dict[str, str], client: Any
) -> None:
    owner, a, b = await make_agent("owner"), await make_agent("a"), await make_agent("b")
    session_id = await open_session(owner)
    body = {
        "sessionId": session_id,
        "name": "standing team",
        "joinPolicy": "apply",
        "ownerId": owner.agent_id,
        "memberIds": [a.agent_id],
    }
    problem(
        await client.post("/v1/groups", json={**body, "ownerId": None}, headers=operator_headers),
        422,
    )
    response = await client.post("/v1/groups", json=body, headers=operator_headers)
    assert response.status_code == 201, response.text
    group = response.json()
    assert group["configuredByOperator"] is True
    assert states(group) == {owner.agent_id: ("owner", "active"), a.agent_id: ("member", "active")}
    gid = group["id"]
    await b.request("POST", f"/v1/groups/{gid}/applications")
    approved = await client.post(
        f"/v1/groups/{gid}/applications/{b.agent_id}/approve", headers=operator_headers
    )
    assert approved.status_code == 200 and approved.json()["state"] == "active"
    await post(a, gid, "hi from a member the operator added")


async def test_roles_mute_and_mentions(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    group = await team(leader, a, b)
    gid = group["id"]
    problem(await a.request("POST", f"/v1/groups/{gid}/members/{b.agent_id}/mute"), 403)
    problem(
        await a.request("PATCH", f"/v1/groups/{gid}/members/{a.agent_id}", json={"role": "admin"}),
        403,
    )
    made = await leader.request(
        "PATCH", f"/v1/groups/{gid}/members/{a.agent_id}", json={"role": "admin"}
    )
    assert made.status_code == 200 and made.json()["role"] == "admin"
    problem(
        await leader.request(
            "PATCH", f"/v1/groups/{gid}/members/{a.agent_id}", json={"role": "owner"}
        ),
        422,
    )
    # an admin mutes; the owner cannot be muted
    problem(await a.request("POST", f"/v1/groups/{gid}/members/{leader.agent_id}/mute"), 409)
    muted = await a.request("POST", f"/v1/groups/{gid}/members/{b.agent_id}/mute")
    assert muted.status_code == 200 and muted.json()["muted"] is True
    before = await count(hub, GroupEvent)
    body = {
        "type": "message",
        "id": "b-1",
        "sentAt": "2026-12-01T00:00:00Z",
        "senderRole": "partner",
        "senderId": b.agent_id,
        "dataItems": [{"type": "text", "text": "may I?"}],
    }
    problem(await b.request("POST", f"/v1/groups/{gid}/messages", json=body), 403)
    # a mention lets a muted member speak once
    await post(leader, gid, "b, your view?", role="leader", mentions=[b.agent_id])
    assert (await b.request("POST", f"/v1/groups/{gid}/messages", json=body)).status_code == 201
    problem(await b.request("POST", f"/v1/groups/{gid}/messages", json={**body, "id": "b-2"}), 403)
    await post(leader, gid, "everyone?", role="leader", mentions="all")
    assert (
        await b.request("POST", f"/v1/groups/{gid}/messages", json={**body, "id": "b-3"})
    ).status_code == 201
    unmuted = await leader.request("POST", f"/v1/groups/{gid}/members/{b.agent_id}/unmute")
    assert unmuted.json()["muted"] is False
    await post(b, gid, "free again")
    assert await count(hub, GroupEvent) == before + 1  # the unmute


async def test_leave_and_remove(make_agent: MakeAgent, hub: Any) -> None:
    leader, a, b = await make_agent("leader"), await make_agent("a"), await make_agent("b")
    group = await team(leader, a, b)
    gid = group["id"]
    problem(await leader.request("DELETE", f"/v1/groups/{gid}/members/{leader.agent_id}"), 409)
    problem(await a.request("DELETE", f"/v1/groups/{gid}/members/{b.agent_id}"), 403)
    left = await a.request("DELETE", f"/v1/groups/{gid}/members/{a.agent_id}")
    assert left.status_code == 200 and left.json()["state"] == "left"
    problem(await a.request("DELETE", f"/v1/groups/{gid}/members/{a.agent_id}"), 404)
    removed = await leader.request("DELETE", f"/v1/groups/{gid}/members/{b.agent_id}")
    assert removed.json()["state"] == "removed"
    for gone in (a, b):  # a former member sees the group no more than a stranger does
        for read in ("", "/members", "/triggers", "/subgroups", "/messages", "/events"):
            problem(await gone.request("GET", f"/v1/groups/{gid}{read}"), 404)
        reply = {
            "type": "message",
            "id": "late",
            "sentAt": "2026-12-01T00:00:00Z",
            "senderRole": "partner",
            "senderId": gone.agent_id,
            "dataItems": [{"type": "text", "text": "still here?"}],
        }
        problem(await gone.request("POST", f"/v1/groups/{gid}/messages", json=reply), 404)
    # each change reached the affected agent's inbox: invited, active, then left/removed
    for gone in (a, b):
        assert await count(hub, InboxEvent, col(InboxEvent.agent_id) == gone.agent_id) == 3
    # a former member may be invited back
    again = await leader.request(
        "POST", f"/v1/groups/{gid}/invitations", json={"agentId": a.agent_id}
    )
    assert again.json()["state"] == "invited"
