"""The hub as the agents' OAuth 2.0 authorization server: RFC 8414 metadata, the client
credentials grant (private_key_jwt for agents, a secret for the operator's applications),
RFC 8707 resources, RFC 9068 tokens, the operator's clients and a client's standing."""

from __future__ import annotations

import base64
import json
import secrets
import time
from typing import Any

import httpx
import pytest
from jose import jws as jose_jws
from sqlalchemy import func, select

from agenthub import AgentKey, HubClient
from agenthub.protocol.oauth import CLIENT_ASSERTION_TYPE
from app.auth.models import UsedJti
from app.oauth.models import OAuthClient
from tests.support.hub import HUB_BASE, ISSUER, MakeAgent, problem
from tests.support.parts import parts

TOKEN_URL = f"{HUB_BASE}/v1/oauth/token"


def client_assertion(kit: HubClient, key: AgentKey | None = None, **overrides: Any) -> str:
    """A client assertion as RFC 7523 3 and OAuth libraries make one (no ``kid``, an hour)."""
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": kit.agent_id,
        "sub": kit.agent_id,
        "aud": TOKEN_URL,
        "iat": now,
        "exp": now + 3600,
        "jti": secrets.token_urlsafe(12),
    }
    claims.update(overrides)
    claims = {k: v for k, v in claims.items() if v is not None}
    return jose_jws.sign(claims, (key or kit.key).private_pem().decode(), algorithm="ES256")


def by_agent(kit: HubClient, resource: str, **form: str) -> dict[str, str]:
    return {
        "grant_type": "client_credentials",
        "resource": resource,
        "client_assertion_type": CLIENT_ASSERTION_TYPE,
        "client_assertion": client_assertion(kit),
        **form,
    }


def oauth_error(response: httpx.Response, status: int, error: str) -> dict[str, Any]:
    body = problem(response, status)
    assert body["error"] == error and body["error_description"] == body["detail"]
    return body


async def claims_of(client: httpx.AsyncClient, token: str) -> dict[str, Any]:
    jwks = (await client.get("/.well-known/jwks.json")).json()
    assert jose_jws.get_unverified_header(token)["typ"] == "at+jwt"
    claims: dict[str, Any] = json.loads(
        jose_jws.verify(token, jwks["keys"][0], algorithms=["ES256"])
    )
    return claims


@pytest.fixture
async def application(
    client: httpx.AsyncClient, operator_headers: dict[str, str]
) -> dict[str, Any]:
    made = await client.post(
        "/v1/operator/oauth-clients", json={"name": "a dashboard"}, headers=operator_headers
    )
    assert made.status_code == 201, made.text
    issued: dict[str, Any] = made.json()
    return issued


async def test_the_metadata_says_where_and_how(client: httpx.AsyncClient) -> None:
    metadata = (await client.get("/.well-known/oauth-authorization-server")).json()
    assert metadata["issuer"] == HUB_BASE
    assert metadata["token_endpoint"] == TOKEN_URL
    assert metadata["jwks_uri"] == f"{HUB_BASE}/.well-known/jwks.json"
    assert metadata["grant_types_supported"] == ["client_credentials"]
    assert "private_key_jwt" in metadata["token_endpoint_auth_methods_supported"]
    assert metadata["token_endpoint_auth_signing_alg_values_supported"] == ["ES256"]


async def test_an_agent_gets_a_token_for_another_by_its_key(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    caller = await make_agent("caller")
    callee = await make_agent("callee", endpointUrl="https://callee.example/rpc")
    assert callee.agent_id
    for resource in (callee.agent_id, f"acps://{callee.agent_id}", "https://callee.example/rpc/"):
        answer = await client.post("/v1/oauth/token", data=by_agent(caller, resource))
        assert answer.status_code == 200, answer.text
        assert answer.headers["cache-control"] == "no-store"
        body = answer.json()
        assert body["token_type"] == "Bearer" and body["scope"] == "call"
        claims = await claims_of(client, body["access_token"])
        assert claims["iss"] == HUB_BASE and claims["aud"] == callee.agent_id
        assert claims["sub"] == claims["client_id"] == caller.agent_id
        assert claims["client_kind"] == "agent" and claims["scope"] == "call"
        assert claims["cnf"]["jkt"] == caller.key.thumbprint
        assert claims["exp"] - claims["iat"] == body["expires_in"]
    # the token calls the agent, never the hub
    token = (await client.post("/v1/oauth/token", data=by_agent(caller, callee.agent_id))).json()
    me = await client.get(
        "/v1/agents/me", headers={"Authorization": f"Bearer {token['access_token']}"}
    )
    problem(me, 401)


async def test_a_url_two_agents_give_names_neither(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    """Anyone may register any endpoint URL: a URL another agent copied names no agent
    (invalid_target, saying to name the agent by its id), never the lowest id of them;
    by id both still get tokens, and the URL names the agent again once the copy leaves."""
    caller = await make_agent("caller")
    callee = await make_agent("callee", endpointUrl="https://shared.example/rpc")
    squatter = await make_agent("squatter", endpointUrl="https://shared.example/rpc/")
    for url in ("https://shared.example/rpc", "https://shared.example/rpc/"):
        refused = await client.post("/v1/oauth/token", data=by_agent(caller, url))
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == "invalid_target"
        assert "acps://" in refused.json()["error_description"]
    for agent in (callee, squatter):
        answer = await client.post("/v1/oauth/token", data=by_agent(caller, agent.agent_id))
        assert answer.status_code == 200, answer.text
    assert (await squatter.request("DELETE", f"/v1/agents/{squatter.agent_id}")).status_code == 204
    answer = await client.post(
        "/v1/oauth/token", data=by_agent(caller, "https://shared.example/rpc")
    )
    assert answer.status_code == 200, answer.text
    claims = await claims_of(client, answer.json()["access_token"])
    assert claims["aud"] == callee.agent_id


async def test_an_application_authenticates_by_its_secret(
    client: httpx.AsyncClient,
    make_agent: MakeAgent,
    application: dict[str, Any],
    operator_headers: dict[str, str],
    hub: Any,
) -> None:
    callee = await make_agent("callee")
    assert callee.agent_id
    client_id, secret = application["clientId"], application["clientSecret"]
    form = {"grant_type": "client_credentials", "resource": callee.agent_id}
    basic = await client.post("/v1/oauth/token", data=form, auth=(client_id, secret))
    posted = await client.post(
        "/v1/oauth/token", data={**form, "client_id": client_id, "client_secret": secret}
    )
    for answer in (basic, posted):
        assert answer.status_code == 200, answer.text
        claims = await claims_of(client, answer.json()["access_token"])
        assert claims["sub"] == client_id and claims["client_kind"] == "application"
        assert "cnf" not in claims
    listed = (await client.get("/v1/operator/oauth-clients", headers=operator_headers)).json()
    assert [c["clientId"] for c in listed["items"]] == [client_id]
    assert "clientSecret" not in listed["items"][0] and listed["items"][0]["revokedAt"] is None
    async with parts(hub).session_factory() as session:
        stored = await session.get(OAuthClient, client_id)
        assert stored is not None and secret not in stored.secret_sha256
    wrong = await client.post("/v1/oauth/token", data=form, auth=(client_id, secret + "x"))
    oauth_error(wrong, 401, "invalid_client")
    for _ in range(2):  # revoking twice is harmless
        revoked = await client.delete(
            f"/v1/operator/oauth-clients/{client_id}", headers=operator_headers
        )
        assert revoked.status_code == 204
    again = await client.post("/v1/oauth/token", data=form, auth=(client_id, secret))
    oauth_error(again, 401, "invalid_client")
    listed = (await client.get("/v1/operator/oauth-clients", headers=operator_headers)).json()
    assert listed["items"][0]["revokedAt"] is not None
    gone = await client.delete("/v1/operator/oauth-clients/app-none", headers=operator_headers)
    assert problem(gone, 404)["type"].endswith("oauth-client-not-found")


async def test_bad_token_requests_are_oauth_errors_and_store_nothing(
    client: httpx.AsyncClient, make_agent: MakeAgent, hub: Any
) -> None:
    caller = await make_agent("caller")
    callee = await make_agent("callee")
    other = AgentKey.generate()
    assert callee.agent_id
    target = callee.agent_id
    cases: list[tuple[dict[str, str], int, str]] = [
        (
            {k: v for k, v in by_agent(caller, target).items() if k != "grant_type"},
            400,
            "invalid_request",
        ),
        (by_agent(caller, target, grant_type="password"), 400, "unsupported_grant_type"),
        (by_agent(caller, target, scope="admin"), 400, "invalid_scope"),
        (
            {k: v for k, v in by_agent(caller, target).items() if k != "resource"},
            400,
            "invalid_request",
        ),
        (by_agent(caller, "agt-nobody"), 400, "invalid_target"),
        (by_agent(caller, "https://nowhere.example/"), 400, "invalid_target"),
        ({"grant_type": "client_credentials", "resource": target}, 401, "invalid_client"),
        (by_agent(caller, target, client_assertion_type="urn:other"), 400, "invalid_request"),
        (by_agent(caller, target, client_secret="x"), 400, "invalid_request"),
        (by_agent(caller, target, client_id=target), 401, "invalid_client"),
        (by_agent(caller, target, client_assertion="not.a.jwt"), 401, "invalid_client"),
        (
            by_agent(caller, target, client_assertion=client_assertion(caller, other)),
            401,
            "invalid_client",
        ),
        (
            by_agent(caller, target, client_assertion=client_assertion(caller, aud="https://x/")),
            401,
            "invalid_client",
        ),
        (
            by_agent(
                caller, target, client_assertion=client_assertion(caller, exp=int(time.time()) - 5)
            ),
            401,
            "invalid_client",
        ),
        (
            by_agent(
                caller,
                target,
                client_assertion=client_assertion(caller, exp=int(time.time()) + 7200),
            ),
            401,
            "invalid_client",
        ),
        (
            by_agent(caller, target, client_assertion=client_assertion(caller, jti=None)),
            401,
            "invalid_client",
        ),
        (by_agent(caller, "r" * 3000), 400, "invalid_request"),
    ]
    for form, status, error in cases:
        oauth_error(await client.post("/v1/oauth/token", data=form), status, error)
    not_a_form = await client.post("/v1/oauth/token", json=by_agent(caller, target))
    oauth_error(not_a_form, 400, "invalid_request")
    bad_basic = await client.post(
        "/v1/oauth/token",
        data={"grant_type": "client_credentials", "resource": target},
        headers={"Authorization": "Basic " + base64.b64encode(b"no-colon").decode()},
    )
    oauth_error(bad_basic, 401, "invalid_client")
    async with parts(hub).session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(UsedJti)) == 0
        assert await session.scalar(select(func.count()).select_from(OAuthClient)) == 0
    # a good assertion is single use
    form = by_agent(caller, target)
    assert (await client.post("/v1/oauth/token", data=form)).status_code == 200
    replayed = oauth_error(await client.post("/v1/oauth/token", data=form), 401, "invalid_client")
    assert "replay" in replayed["detail"]


async def test_a_deregistered_agent_gets_no_token(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    caller = await make_agent("caller")
    callee = await make_agent("callee")
    assert callee.agent_id
    form = by_agent(caller, callee.agent_id)
    await caller.deregister()
    oauth_error(await client.post("/v1/oauth/token", data=form), 401, "invalid_client")


async def test_an_agent_reads_a_clients_standing(
    client: httpx.AsyncClient,
    make_agent: MakeAgent,
    application: dict[str, Any],
    operator_headers: dict[str, str],
) -> None:
    reader = await make_agent("partner")
    other = await make_agent("other")
    headers = {"Authorization": f"Bearer {await reader.access_token()}"}
    client_id = application["clientId"]

    async def standing(of: str) -> httpx.Response:
        return await client.get(f"/v1/oauth/clients/{of}", headers=headers)

    assert (await standing(client_id)).json() == {
        "clientId": client_id,
        "kind": "application",
        "active": True,
    }
    assert (await standing(other.agent_id or "")).json()["kind"] == "agent"
    await client.delete(f"/v1/operator/oauth-clients/{client_id}", headers=operator_headers)
    assert (await standing(client_id)).json()["active"] is False
    await other.deregister()
    problem(await standing(other.agent_id or ""), 404)
    problem(await client.get(f"/v1/oauth/clients/{client_id}"), 401)


async def test_only_the_operator_manages_applications(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    agent = await make_agent("agent")
    headers = {"Authorization": f"Bearer {await agent.access_token()}"}
    problem(await client.get("/v1/operator/oauth-clients", headers=headers), 403)
    problem(await client.post("/v1/operator/oauth-clients", json={"name": "x"}), 401)
    problem(
        await client.post(
            "/v1/operator/oauth-clients",
            json={"name": ""},
            headers={"Authorization": "Bearer operator-secret-for-tests"},
        ),
        422,
    )
    assert ISSUER  # the hub's own tokens keep their issuer; OAuth's is the hub's URL
