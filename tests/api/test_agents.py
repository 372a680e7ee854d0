"""The agents resource: register, get, patch, delete, list — and every refusal."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from agenthub import AgentKey, HubClient
from app.agents.models import Agent, AgentLabel
from app.agents.models import AgentKey as AgentKeyRow
from tests.support.hub import (
    HUB_BASE,
    OPERATOR_TOKEN,
    REGISTRATION_TOKEN,
    MakeAgent,
    card,
    problem,
)
from tests.support.parts import parts

SKILLS = [
    {
        "id": "translate",
        "name": "Translation",
        "description": "Translates text between languages",
        "tags": ["language", "text"],
        "inputTypes": ["text/plain"],
        "outputTypes": ["text/plain"],
    },
    {"id": "sqrt", "name": "Square root", "description": "Computes roots", "tags": ["math"]},
]


async def count(hub: Any, model: Any) -> int:
    async with parts(hub).session_factory() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_register_returns_card_with_aic_id(client: httpx.AsyncClient) -> None:
    key = AgentKey.generate()
    body = card(
        "alice",
        key,
        skills=SKILLS,
        provider="acme",
        version="1.2",
        endpointUrl="https://alice.example/aip",
    )
    response = await client.post("/v1/agents", json=body, headers=auth(REGISTRATION_TOKEN))
    assert response.status_code == 201, response.text
    agent = response.json()
    assert agent["id"].startswith("1.2.156.3088.")
    assert response.headers["location"] == f"/v1/agents/{agent['id']}"
    assert agent["publicJwk"] == key.public_jwk
    assert agent["skills"][0]["inputTypes"] == ["text/plain"]
    assert agent["endpointUrl"] == "https://alice.example/aip"
    assert agent["status"] == "offline" and agent["lastSeenAt"] is None


async def test_operator_token_may_register(client: httpx.AsyncClient) -> None:
    body = card("alice", AgentKey.generate())
    response = await client.post("/v1/agents", json=body, headers=auth(OPERATOR_TOKEN))
    assert response.status_code == 201


async def test_register_without_or_with_wrong_token_is_401(
    client: httpx.AsyncClient, hub: Any
) -> None:
    body = card("alice", AgentKey.generate())
    missing = problem(await client.post("/v1/agents", json=body), 401)
    assert missing["type"].endswith("/registration-token-needed")
    # a wrong token is told apart from none, in the words a person needs
    wrong = problem(await client.post("/v1/agents", json=body, headers=auth("guess")), 401)
    assert wrong["type"].endswith("/registration-token-rejected")
    assert wrong["detail"] == "This registration token is not accepted."
    # even an invalid body is refused as unauthenticated first, so strangers learn nothing
    problem(await client.post("/v1/agents", json={"nope": 1}), 401)
    assert await count(hub, Agent) == 0


async def test_open_registration_needs_no_token(settings: Any) -> None:
    from app.main import create_app

    settings.open_registration = True
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url=HUB_BASE) as http:
            response = await http.post("/v1/agents", json=card("alice", AgentKey.generate()))
            assert response.status_code == 201
            await http.delete(f"/v1/agents/{response.json()['id']}", headers=auth(OPERATOR_TOKEN))
    from tests.support.hub import empty_tables

    await empty_tables(settings.database_url)


async def test_register_bad_bodies_are_422_and_store_nothing(
    client: httpx.AsyncClient, hub: Any
) -> None:
    key = AgentKey.generate()
    private = {**key.public_jwk, "d": "A" * 43}
    bad_bodies = [
        {},
        card("", key),
        {**card("alice", key), "publicJwk": private},
        {**card("alice", key), "publicJwk": {**key.public_jwk, "x": "A" * 43}},  # off the curve
        {**card("alice", key), "publicJwk": {**key.public_jwk, "kty": "RSA"}},
        {**card("alice", key), "publicJwk": {**key.public_jwk, "x": "short"}},
        {**card("alice", key), "endpointUrl": "ftp://x"},
        {**card("alice", key), "endpointUrl": "not a url"},
        {**card("alice", key), "skills": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]},
        {**card("alice", key), "skills": [{"name": "no id"}]},
        {**card("alice", key), "unknownField": 1},
        {**card("alice", key), "name": "x" * 201},
        [1, 2, 3],
        "just a string",
    ]
    for body in bad_bodies:
        response = await client.post("/v1/agents", json=body, headers=auth(REGISTRATION_TOKEN))
        problem(response, 422)
    assert await count(hub, Agent) == 0
    assert await count(hub, AgentKeyRow) == 0


async def test_private_key_is_never_echoed_in_errors(client: httpx.AsyncClient) -> None:
    key = AgentKey.generate()
    secret_d = "S3CRETS3CRETS3CRETS3CRETS3CRETS3CRETS3CRET1"
    body = {**card("alice", key), "publicJwk": {**key.public_jwk, "d": secret_d}}
    response = await client.post("/v1/agents", json=body, headers=auth(REGISTRATION_TOKEN))
    problem(response, 422)
    assert secret_d not in response.text


async def test_register_same_key_twice_is_409(client: httpx.AsyncClient, hub: Any) -> None:
    key = AgentKey.generate()
    first = await client.post("/v1/agents", json=card("a", key), headers=auth(REGISTRATION_TOKEN))
    assert first.status_code == 201
    second = await client.post("/v1/agents", json=card("b", key), headers=auth(REGISTRATION_TOKEN))
    problem(second, 409)
    assert await count(hub, Agent) == 1


async def test_get_agent_and_unknown_is_404(make_agent: MakeAgent) -> None:
    alice, bob = await make_agent("alice", skills=SKILLS), await make_agent("bob")
    seen = await bob.get_agent(alice.agent_id or "")
    assert seen.name == "alice" and seen.public_jwk == alice.key.public_jwk
    response = await bob.request("GET", "/v1/agents/1.2.156.3088.1.AGH.NOBODY")
    problem(response, 404)


async def test_status_online_after_authenticating(make_agent: MakeAgent) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    assert (await alice.get_agent(bob.agent_id or "")).status == "offline"
    await bob.access_token()
    seen = await alice.get_agent(bob.agent_id or "")
    assert seen.status == "online" and seen.last_seen_at is not None


async def test_a_refused_request_still_shows_its_agent_seen(
    make_agent: MakeAgent, hub: Any
) -> None:
    """Last seen is written once the request's transaction ended, in a transaction of its
    own: a request the route refuses (its own transaction rolled back) still counts."""
    from sqlalchemy import update
    from sqlmodel import col

    from app.agents.models import Agent

    bob = await make_agent("bob")
    await bob.access_token()
    async with parts(hub).session_factory() as db:
        await db.exec(update(Agent).where(col(Agent.id) == bob.agent_id).values(last_seen_at=None))
        await db.commit()
    problem(await bob.request("GET", "/v1/groups/grp-nobody"), 404)
    async with parts(hub).session_factory() as db:
        agent = await db.get(Agent, bob.agent_id)
        assert agent is not None and agent.last_seen_at is not None


async def test_patch_self_updates_card_and_labels(make_agent: MakeAgent, hub: Any) -> None:
    alice = await make_agent("alice", skills=SKILLS)
    response = await alice.request(
        "PATCH",
        f"/v1/agents/{alice.agent_id}",
        json={
            "description": "now a poet",
            "skills": [{"id": "poem", "name": "Poems", "tags": ["verse"]}],
            "endpointUrl": "http://127.0.0.1:9/aip",
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["description"] == "now a poet"
    assert [s["id"] for s in body["skills"]] == ["poem"]
    assert body["endpointUrl"] == "http://127.0.0.1:9/aip"
    assert body["protocols"] == [{"protocol": "aip", "url": "http://127.0.0.1:9/aip"}]
    async with parts(hub).session_factory() as session:
        labels = (await session.exec(select(AgentLabel.kind, AgentLabel.value))).all()
    assert sorted(labels) == [("protocol", "aip"), ("skill", "poem"), ("tag", "verse")]


async def test_patch_other_agent_is_403(make_agent: MakeAgent) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    response = await bob.request(
        "PATCH", f"/v1/agents/{alice.agent_id}", json={"description": "hijacked"}
    )
    problem(response, 403)
    assert (await bob.get_agent(alice.agent_id or "")).description != "hijacked"


async def test_patch_bad_input(make_agent: MakeAgent) -> None:
    alice = await make_agent("alice")
    path = f"/v1/agents/{alice.agent_id}"
    problem(await alice.request("PATCH", path, json={}), 400)
    problem(await alice.request("PATCH", path, json={"name": None}), 422)
    problem(await alice.request("PATCH", path, json={"publicJwk": {"kty": "EC"}}), 422)
    problem(await alice.request("PATCH", path, json={"id": "other"}), 422)


async def test_rotate_to_another_agents_key_is_409(make_agent: MakeAgent) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    response = await bob.request(
        "PATCH", f"/v1/agents/{bob.agent_id}", json={"publicJwk": alice.key.public_jwk}
    )
    problem(response, 409)
    assert (await bob.get_agent(bob.agent_id or "")).public_jwk == bob.key.public_jwk


async def test_key_rotation_keeps_history(make_agent: MakeAgent, hub: Any) -> None:
    alice = await make_agent("alice")
    await alice.rotate_key(AgentKey.generate())
    async with parts(hub).session_factory() as session:
        rows = (
            await session.exec(
                select(AgentKeyRow.thumbprint, AgentKeyRow.retired_at).where(
                    AgentKeyRow.agent_id == alice.agent_id
                )
            )
        ).all()
    assert len(rows) == 2
    assert sorted(r[1] is None for r in rows) == [False, True]


async def test_a_retired_key_stays_retired_and_its_tokens_dead(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice = await make_agent("alice")
    first_key = alice.key
    old_token = await alice.access_token()
    await alice.rotate_key(AgentKey.generate())
    back = await alice.request(
        "PATCH", f"/v1/agents/{alice.agent_id}", json={"publicJwk": first_key.public_jwk}
    )
    assert problem(back, 409)["type"].endswith("/key-retired")
    assert (await alice.get_agent(alice.agent_id or "")).public_jwk == alice.key.public_jwk
    stale = await client.get("/v1/agents", headers=auth(old_token))
    problem(stale, 401)


async def test_delete_other_agent_is_403_operator_may(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    problem(await bob.request("DELETE", f"/v1/agents/{alice.agent_id}"), 403)
    response = await client.delete(f"/v1/agents/{alice.agent_id}", headers=auth(OPERATOR_TOKEN))
    assert response.status_code == 204
    problem(await bob.request("GET", f"/v1/agents/{alice.agent_id}"), 404)
    problem(await client.delete(f"/v1/agents/{alice.agent_id}", headers=auth(OPERATOR_TOKEN)), 404)


async def test_a_deregistered_agent_keeps_its_name_in_the_record(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    path = f"/v1/agents/{alice.agent_id}/name"
    named = await bob.request("GET", path)
    assert named.json() == {"id": alice.agent_id, "name": "alice", "deregisteredAt": None}
    gone = await client.delete(f"/v1/agents/{alice.agent_id}", headers=auth(OPERATOR_TOKEN))
    assert gone.status_code == 204
    problem(await bob.request("GET", f"/v1/agents/{alice.agent_id}"), 404)  # not registered
    for response in (
        await bob.request("GET", path),
        await client.get(path, headers=auth(OPERATOR_TOKEN)),
    ):
        assert response.status_code == 200, response.text
        body = response.json()
        assert (body["id"], body["name"]) == (alice.agent_id, "alice")
        assert body["deregisteredAt"]
    problem(await bob.request("GET", "/v1/agents/1.2.156.3088.1.AGH.NOBODY/name"), 404)
    problem(await client.get(path), 401)


async def test_operator_lists_and_reads_every_agent(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice = await make_agent("alice", skills=SKILLS)
    bob = await make_agent("bob")
    everyone = {alice.agent_id, bob.agent_id}
    for params in ({}, {"includeSelf": "true"}, {"includeSelf": "false"}):
        response = await client.get("/v1/agents", params=params, headers=auth(OPERATOR_TOKEN))
        assert response.status_code == 200, response.text
        assert {a["id"] for a in response.json()["items"]} == everyone
    ranked = await client.get("/v1/agents", params={"q": "alice"}, headers=auth(OPERATOR_TOKEN))
    assert [a["id"] for a in ranked.json()["items"]] == [alice.agent_id]
    card_ = await client.get(f"/v1/agents/{bob.agent_id}", headers=auth(OPERATOR_TOKEN))
    assert card_.status_code == 200 and card_.json()["name"] == "bob"
    problem(
        await client.get("/v1/agents/1.2.156.3088.1.AGH.NOBODY", headers=auth(OPERATOR_TOKEN)),
        404,
    )


async def test_list_and_get_with_a_bad_token_are_401(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice = await make_agent("alice")
    garbage = problem(await client.get("/v1/agents", headers=auth("garbage")), 401)
    assert garbage["type"].endswith("/operator-token-rejected")  # no JWS: a wrong secret
    for token in (REGISTRATION_TOKEN, OPERATOR_TOKEN + "x"):
        problem(await client.get("/v1/agents", headers=auth(token)), 401)
        problem(await client.get(f"/v1/agents/{alice.agent_id}", headers=auth(token)), 401)
    problem(await client.get("/v1/agents"), 401)
    problem(await client.get("/v1/agents", headers={"Authorization": "Basic x"}), 401)


async def test_operator_token_is_not_an_agent(client: httpx.AsyncClient) -> None:
    problem(await client.get("/v1/sessions", headers=auth(OPERATOR_TOKEN)), 401)
    problem(await client.get("/v1/tasks", headers=auth(OPERATOR_TOKEN)), 401)


async def test_registration_token_cannot_delete(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    alice = await make_agent("alice")
    response = await client.delete(f"/v1/agents/{alice.agent_id}", headers=auth(REGISTRATION_TOKEN))
    problem(response, 401)


async def test_list_excludes_caller_and_filters(make_agent: MakeAgent) -> None:
    alice = await make_agent("alice", skills=SKILLS, provider="acme")
    bob = await make_agent("bob", skills=[{"id": "poem", "name": "Poems", "tags": ["text"]}])
    carol = await make_agent("carol")

    async def ids(**params: Any) -> set[str]:
        page = await carol.list_agents(**params)
        return {a.id for a in page.items}

    assert await ids() == {alice.agent_id, bob.agent_id}
    assert await ids(includeSelf="true") == {alice.agent_id, bob.agent_id, carol.agent_id}
    assert await ids(skill="sqrt") == {alice.agent_id}
    assert await ids(tag="text") == {alice.agent_id, bob.agent_id}
    assert await ids(tag="math", skill="poem") == set()
    assert await ids(provider="acme") == {alice.agent_id}
    await bob.access_token()
    assert await ids(status="online") == {bob.agent_id}
    assert await ids(status="offline") == {alice.agent_id}


async def test_list_q_ranks_name_matches_first(make_agent: MakeAgent) -> None:
    await make_agent("translator", description="turns french into english")
    await make_agent("helper", description="a general translator of text")
    await make_agent("chef", description="cooks")
    caller = await make_agent("caller")
    page = await caller.list_agents(q="translator")
    assert [a.name for a in page.items] == ["translator", "helper"]
    assert page.items[0].score is not None and page.items[1].score is not None
    assert page.items[0].score > page.items[1].score
    for hostile in ['"', "%", "_", "\\", "a" * 400, "NEAR(", "*", "' OR 1=1 --"]:
        response = await caller.request("GET", "/v1/agents", params={"q": hostile})
        assert response.status_code == 200, response.text
        if hostile != "' OR 1=1 --":  # its word "or" honestly matches "translator"
            assert response.json()["items"] == [], hostile


async def test_list_pages_with_cursor(make_agent: MakeAgent) -> None:
    made = [await make_agent(f"agent-{i}", description="pager test") for i in range(7)]
    caller = made[0]
    for params in ({}, {"q": "pager"}):
        seen: list[str] = []
        cursor = None
        while True:
            page = await caller.list_agents(limit=3, cursor=cursor, **params)
            seen += [a.id for a in page.items]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert sorted(seen) == sorted(a.agent_id for a in made[1:])
        assert len(seen) == len(set(seen))


async def test_list_bad_params_are_4xx(make_agent: MakeAgent) -> None:
    caller = await make_agent("caller")
    for params, status in (
        ({"limit": 0}, 422),
        ({"limit": 501}, 422),
        ({"limit": "x"}, 422),
        ({"status": "busy"}, 422),
        ({"cursor": "!!!"}, 400),
        ({"cursor": "WzEsMiwzXQ"}, 400),
    ):
        problem(await caller.request("GET", "/v1/agents", params=params), status)


async def test_kit_register_refuses_foreign_key_card(client: httpx.AsyncClient) -> None:
    kit = HubClient(HUB_BASE, key=AgentKey.generate(), http=client)
    other = AgentKey.generate()
    try:
        await kit.register(card("x", other), registration_token=REGISTRATION_TOKEN)
    except ValueError as exc:
        assert "publicJwk" in str(exc)
    else:
        raise AssertionError("registering another key's card must fail")
