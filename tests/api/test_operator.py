"""The operator's read API: hub-wide lists of agents, sessions, groups and tasks, the health
strip, the detail routes the operator may read, and agents refused on all of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from agenthub import HubClient
from tests.support.groups import post, team
from tests.support.hub import REGISTRATION_TOKEN, MakeAgent, problem
from tests.support.messages import command, result

OPERATOR_ROUTES = [
    "/v1/operator/agents",
    "/v1/operator/sessions",
    "/v1/operator/groups",
    "/v1/operator/tasks",
    "/v1/operator/events",
    "/v1/operator/health",
]


@dataclass
class Scene:
    leader: HubClient
    worker: HubClient
    partner: HubClient
    group: dict[str, Any]
    session_id: str
    p2p_session_id: str
    group_task: str
    p2p_task: str


async def scene(make_agent: MakeAgent) -> Scene:
    """A team (a group task, a post) and a point-to-point session with a task, made through
    the hub's API by the agents themselves."""
    leader = await make_agent("leader", skills=[skill("plan", "Planning")])
    worker = await make_agent("worker", skills=[skill("weld", "Welding")])
    partner = await make_agent("partner")
    group = await team(leader, worker)
    await post(worker, group["id"], "hello, team")
    group_task = await leader.groups.assign(group["id"], str(worker.agent_id), "weld it")
    body = {"receivers": [{"agentId": partner.agent_id, "mode": "p2p"}]}
    p2p = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
    start = command(str(leader.agent_id), "start", task_id="t-p2p", partnerId=partner.agent_id)
    start["dataItems"] = [{"type": "text", "text": "count"}]
    sent = await leader.request("POST", f"/v1/sessions/{p2p}/messages", json=start)
    assert sent.status_code == 201, sent.text
    accepted = result(str(partner.agent_id), "t-p2p", "accepted")
    sent = await partner.request("POST", f"/v1/sessions/{p2p}/messages", json=accepted)
    assert sent.status_code == 201, sent.text
    return Scene(leader, worker, partner, group, group["sessionId"], p2p, group_task, "t-p2p")


def skill(sid: str, name: str) -> dict[str, Any]:
    return {"id": sid, "name": name, "description": f"{name} for tests", "tags": []}


async def read(client: httpx.AsyncClient, headers: dict[str, str], path: str, **params: Any) -> Any:
    response = await client.get(path, params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def every_page(
    client: httpx.AsyncClient, headers: dict[str, str], path: str, **params: Any
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    for _ in range(50):
        page = await read(client, headers, path, **params, **({"cursor": cursor} if cursor else {}))
        items += page["items"]
        cursor = page["nextCursor"]
        if cursor is None:
            return items
    raise AssertionError("the pages never ended")


@pytest.mark.parametrize("path", OPERATOR_ROUTES)
async def test_every_operator_route_refuses_agents_and_strangers(
    client: httpx.AsyncClient, make_agent: MakeAgent, path: str
) -> None:
    agent = await make_agent("nosy")
    refused = problem(await agent.request("GET", path), 403)
    assert refused["type"].endswith("/operator-only")
    assert problem(await client.get(path), 401)["type"].endswith("/operator-token-needed")
    wrong = problem(await client.get(path, headers={"Authorization": "Bearer nonsense"}), 401)
    assert wrong["type"].endswith("/operator-token-rejected")
    assert wrong["detail"] == "This operator token is not the hub's."
    problem(await client.get(path, headers={"Authorization": f"Bearer {REGISTRATION_TOKEN}"}), 401)


async def test_a_wrong_operator_token_is_told_as_such_where_agents_may_call_too(
    client: httpx.AsyncClient,
) -> None:
    """Routes for an agent or the operator: a token that is no access token (no compact JWS)
    is a wrong operator token, not a malformed JWS."""
    wrong = problem(await client.get("/v1/agents", headers={"Authorization": "Bearer guess"}), 401)
    assert wrong["type"].endswith("/operator-token-rejected")
    assert wrong["detail"].startswith("This operator token is not the hub's")
    assert "JWS" not in wrong["detail"]


async def test_agents_are_listed_with_status_skills_and_certificate_state(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    csr = s.worker.key.certificate_request("ignored")
    issued = await s.worker.request(
        "POST", f"/v1/agents/{s.worker.agent_id}/certificates", json={"csr": csr}
    )
    assert issued.status_code == 201, issued.text
    csr = s.partner.key.certificate_request("ignored")
    serial = (
        await s.partner.request(
            "POST", f"/v1/agents/{s.partner.agent_id}/certificates", json={"csr": csr}
        )
    ).json()["serial"]
    revoked = await s.partner.request(
        "DELETE", f"/v1/agents/{s.partner.agent_id}/certificates/{serial}"
    )
    assert revoked.status_code == 204

    page = await read(client, operator_headers, "/v1/operator/agents")
    by_name = {a["name"]: a for a in page["items"]}
    assert set(by_name) == {"leader", "worker", "partner"} and page["nextCursor"] is None
    public = (await s.leader.request("GET", f"/v1/agents/{s.worker.agent_id}")).json()
    worker = by_name["worker"]
    assert {k: v for k, v in worker.items() if k != "certificate"} == public
    assert worker["status"] == "online" and worker["skills"][0]["id"] == "weld"
    assert worker["certificate"]["state"] == "valid"
    assert worker["certificate"]["serial"] == issued.json()["serial"]
    assert worker["certificate"]["notAfter"]
    assert by_name["partner"]["certificate"]["state"] == "revoked"
    assert by_name["leader"]["certificate"] == {"state": "none"}
    assert "revokedAt" not in worker["certificate"]
    assert worker.get("score") is None


async def test_agents_search_ranks_with_scores_and_filters(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    await scene(make_agent)
    found = await read(client, operator_headers, "/v1/operator/agents", q="welding")
    assert [a["name"] for a in found["items"]] == ["worker"]
    assert found["items"][0]["score"] > 0
    by_skill = await read(client, operator_headers, "/v1/operator/agents", skill="plan")
    assert [a["name"] for a in by_skill["items"]] == ["leader"]
    offline = await read(client, operator_headers, "/v1/operator/agents", status="offline")
    assert offline["items"] == []
    aip = await read(client, operator_headers, "/v1/operator/agents", protocol="a2a")
    assert aip["items"] == []
    paged = await every_page(client, operator_headers, "/v1/operator/agents", limit=1)
    assert sorted(a["name"] for a in paged) == ["leader", "partner", "worker"]


async def test_sessions_newest_first_with_counts_filters_and_pages(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    page = await read(client, operator_headers, "/v1/operator/sessions")
    assert [x["id"] for x in page["items"]] == [s.p2p_session_id, s.session_id]
    team_session = page["items"][1]
    shown = (await s.leader.request("GET", f"/v1/sessions/{s.session_id}")).json()
    assert {k: v for k, v in team_session.items() if not k.endswith("Count")} == shown
    assert (team_session["taskCount"], team_session["groupCount"]) == (1, 1)
    assert (page["items"][0]["taskCount"], page["items"][0]["groupCount"]) == (1, 0)

    partner_only = await read(
        client, operator_headers, "/v1/operator/sessions", agentId=s.partner.agent_id
    )
    assert [x["id"] for x in partner_only["items"]] == [s.p2p_session_id]
    closed = await s.leader.request(
        "PATCH", f"/v1/sessions/{s.p2p_session_id}", json={"state": "closed"}
    )
    assert closed.status_code == 200, closed.text
    only_closed = await read(client, operator_headers, "/v1/operator/sessions", state="closed")
    assert [x["id"] for x in only_closed["items"]] == [s.p2p_session_id]
    paged = await every_page(client, operator_headers, "/v1/operator/sessions", limit=1)
    assert [x["id"] for x in paged] == [s.p2p_session_id, s.session_id]
    problem(await client.get("/v1/operator/sessions?cursor=bogus", headers=operator_headers), 400)


async def test_groups_with_member_counts_filters_and_pages(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    child = await s.leader.groups.create(s.session_id, "sub-team", parent_group_id=s.group["id"])
    page = await read(client, operator_headers, "/v1/operator/groups")
    assert [g["id"] for g in page["items"]] == [child.id, s.group["id"]]
    root = page["items"][1]
    shown = (await s.leader.request("GET", f"/v1/groups/{s.group['id']}")).json()
    assert root["memberCount"] == 2
    for key in ("conversationState", "lastSeq", "depth", "floor", "members", "sessionId"):
        assert root[key] == shown[key], key
    assert page["items"][0]["parentGroupId"] == s.group["id"] and page["items"][0]["depth"] == 1

    children = await read(
        client, operator_headers, "/v1/operator/groups", parentGroupId=s.group["id"]
    )
    assert [g["id"] for g in children["items"]] == [child.id]
    roots = await read(client, operator_headers, "/v1/operator/groups", depth=0)
    assert [g["id"] for g in roots["items"]] == [s.group["id"]]
    elsewhere = await read(
        client, operator_headers, "/v1/operator/groups", sessionId=s.p2p_session_id
    )
    assert elsewhere["items"] == []
    paged = await every_page(client, operator_headers, "/v1/operator/groups", limit=1)
    assert [g["id"] for g in paged] == [child.id, s.group["id"]]


async def test_tasks_of_the_whole_hub_with_filters_and_pages(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    page = await read(client, operator_headers, "/v1/operator/tasks")
    assert [t["id"] for t in page["items"]] == [s.p2p_task, s.group_task]
    shown = await s.partner.request("GET", f"/v1/tasks/{s.p2p_task}")
    assert page["items"][0] == shown.json()
    assert page["items"][0]["state"] == "accepted" and page["items"][1]["state"] == "submitted"

    async def ids(**params: Any) -> list[str]:
        return [
            t["id"]
            for t in (await read(client, operator_headers, "/v1/operator/tasks", **params))["items"]
        ]

    assert await ids(state="submitted") == [s.group_task]
    assert await ids(state="accepted") == [s.p2p_task]
    assert await ids(groupId=s.group["id"]) == [s.group_task]
    assert await ids(sessionId=s.p2p_session_id) == [s.p2p_task]
    assert await ids(agentId=s.worker.agent_id) == [s.group_task]
    assert await ids(agentId=s.leader.agent_id) == [s.p2p_task, s.group_task]
    paged = await every_page(client, operator_headers, "/v1/operator/tasks", limit=1)
    assert [t["id"] for t in paged] == [s.p2p_task, s.group_task]


async def test_the_operator_reads_every_detail_the_console_opens(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    gid, sid = s.group["id"], s.session_id
    for path in (
        f"/v1/sessions/{sid}",
        f"/v1/groups/{gid}",
        f"/v1/groups/{gid}/members",
        f"/v1/groups/{gid}/subgroups",
        f"/v1/groups/{gid}/triggers",
        f"/v1/tasks/{s.p2p_task}",
    ):
        await read(client, operator_headers, path)
    p2p = await read(client, operator_headers, f"/v1/sessions/{s.p2p_session_id}/messages")
    assert [m["type"] for m in p2p["items"]] == ["task-command", "task-result"]
    talk = await read(client, operator_headers, f"/v1/groups/{gid}/messages")
    assert talk["items"][0]["dataItems"][0]["text"] == "hello, team"
    task = await read(client, operator_headers, f"/v1/tasks/{s.group_task}", sessionId=sid)
    assert task["partnerId"] == s.worker.agent_id
    group_task = await read(
        client, operator_headers, f"/v1/sessions/{sid}/tasks/{s.group_task}/messages"
    )
    assert [m["type"] for m in group_task["items"]] == ["task-command"]  # its group's post
    p2p_task = await read(
        client, operator_headers, f"/v1/sessions/{s.p2p_session_id}/tasks/{s.p2p_task}/messages"
    )
    assert len(p2p_task["items"]) == 2
    problem(await client.get("/v1/sessions/nope", headers=operator_headers), 404)
    problem(await client.get("/v1/tasks/nope", headers=operator_headers), 404)
    problem(await client.get("/v1/groups/nope/messages", headers=operator_headers), 404)


async def test_the_operator_reads_but_never_posts(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    s = await scene(make_agent)
    before = await read(client, operator_headers, f"/v1/groups/{s.group['id']}/messages")
    body = {"type": "message", "id": "op-1", "senderId": "op", "dataItems": []}
    for path in (f"/v1/groups/{s.group['id']}/messages", f"/v1/sessions/{s.session_id}/messages"):
        problem(await client.post(path, json=body, headers=operator_headers), 401)
    after = await read(client, operator_headers, f"/v1/groups/{s.group['id']}/messages")
    assert after == before


async def test_health_says_what_this_replica_does(
    client: httpx.AsyncClient, make_agent: MakeAgent, operator_headers: dict[str, str]
) -> None:
    from agenthub import __version__

    await scene(make_agent)
    health = await read(client, operator_headers, "/v1/operator/health")
    assert health["store"] == "ok" and health["broker"] == "ok"
    assert health["version"] == __version__
    assert health["openStreams"] == 0
    assert health["ingestPerSecond"] > 0  # the scene's posts, within the last seconds
    assert health["deliveriesPerSecond"] >= 0
