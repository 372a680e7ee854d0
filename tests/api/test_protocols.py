"""Protocol bindings in the registry, discovery by protocol, and the A2A Agent Card route."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from a2a.client.card_resolver import parse_agent_card
from a2a.types import AgentCard as A2aCard
from a2a.utils.proto_utils import validate_proto_required_fields
from cryptography.hazmat.primitives.asymmetric import ec
from google.protobuf.json_format import ParseDict
from sqlalchemy import func, select

from agenthub import AgentKey, HubClient
from agenthub.a2a.card import a2a_card, card_json, check_card_signature, sign_card
from agenthub.errors import CardSignatureError
from agenthub.protocol.agents import AgentCard
from app.agents.models import Agent, AgentLabel
from tests.support.hub import HUB_BASE, REGISTRATION_TOKEN, MakeAgent, card, problem
from tests.support.parts import parts

ENDPOINT = "http://127.0.0.1:9001/aip"
A2A_URL = "http://127.0.0.1:9001/a2a"
SKILLS = [
    {
        "id": "translate",
        "name": "Translation",
        "description": "French and German",
        "tags": ["translation"],
        "inputTypes": ["text/plain"],
        "outputTypes": ["text/plain", "application/pdf"],
    },
    {"id": "summarise", "name": "Summaries", "inputTypes": ["text/markdown"]},
]


async def count(hub: Any, model: Any) -> int:
    async with parts(hub).session_factory() as db:
        return int(await db.scalar(select(func.count()).select_from(model)) or 0)


async def register(client: httpx.AsyncClient, **extra: Any) -> httpx.Response:
    body = card("bilingual", AgentKey.generate(), **extra)
    headers = {"Authorization": f"Bearer {REGISTRATION_TOKEN}"}
    return await client.post("/v1/agents", json=body, headers=headers)


async def test_register_with_protocols_shows_them_with_default_urls(
    client: httpx.AsyncClient,
) -> None:
    protocols = [{"protocol": "aip"}, {"protocol": "a2a", "url": A2A_URL, "version": "1.0"}]
    response = await register(client, endpointUrl=ENDPOINT, protocols=protocols)
    assert response.status_code == 201, response.text
    assert response.json()["protocols"] == [
        {"protocol": "aip", "url": ENDPOINT},
        {"protocol": "a2a", "url": A2A_URL, "version": "1.0"},
    ]


async def test_an_agent_that_declared_none_shows_aip_at_its_endpoint_or_nothing(
    make_agent: MakeAgent,
) -> None:
    reachable = await make_agent("reachable", endpointUrl=ENDPOINT)
    silent = await make_agent("silent")
    shown = await reachable.request("GET", f"/v1/agents/{reachable.agent_id}")
    assert shown.json()["protocols"] == [{"protocol": "aip", "url": ENDPOINT}]
    shown = await reachable.request("GET", f"/v1/agents/{silent.agent_id}")
    assert shown.json()["protocols"] == []


async def test_bad_protocols_are_422_and_register_nothing(
    client: httpx.AsyncClient, hub: Any
) -> None:
    for extra, code in (
        ({"protocols": [{"protocol": "mcp", "url": A2A_URL}]}, None),
        ({"protocols": [{"protocol": "a2a", "url": "ftp://x/a2a"}]}, None),
        ({"protocols": [{"protocol": "a2a", "url": A2A_URL, "extra": 1}]}, None),
        ({"protocols": [{"protocol": "a2a", "url": f"{A2A_URL}/{n}"} for n in range(9)]}, None),
        ({"protocols": [{"protocol": "a2a", "url": A2A_URL}] * 2}, None),
        ({"protocols": [{"protocol": "aip", "url": A2A_URL, "transport": "HTTP+JSON"}]}, None),
        ({"protocols": [{"protocol": "a2a", "url": A2A_URL, "transport": "GRPC"}]}, None),
        (  # JSONRPC is the default transport: the same binding twice
            {
                "endpointUrl": A2A_URL,
                "protocols": [{"protocol": "a2a"}, {"protocol": "a2a", "transport": "JSONRPC"}],
            },
            None,
        ),
        ({"protocols": [{"protocol": "a2a"}]}, "protocol-without-url"),
        (
            {
                "endpointUrl": A2A_URL,
                "protocols": [{"protocol": "a2a"}, {"protocol": "a2a", "url": A2A_URL}],
            },
            "duplicate-protocol-binding",
        ),
    ):
        body = problem(await register(client, **extra), 422)
        if code is not None:
            assert body["type"].endswith(f"/{code}"), body
    assert await count(hub, Agent) == 0
    assert await count(hub, AgentLabel) == 0


async def test_patch_protocols_and_endpoint_keep_labels_and_card_in_step(
    make_agent: MakeAgent, hub: Any
) -> None:
    agent = await make_agent("mover", endpointUrl=ENDPOINT)
    path = f"/v1/agents/{agent.agent_id}"
    patched = await agent.request("PATCH", path, json={"protocols": [{"protocol": "a2a"}]})
    assert patched.status_code == 200, patched.text
    assert patched.json()["protocols"] == [{"protocol": "a2a", "url": ENDPOINT}]
    moved = await agent.request("PATCH", path, json={"endpointUrl": A2A_URL})
    assert moved.json()["protocols"] == [{"protocol": "a2a", "url": A2A_URL}]
    async with parts(hub).session_factory() as db:
        labels = (await db.exec(select(AgentLabel.kind, AgentLabel.value))).all()
    assert sorted(labels) == [("protocol", "a2a")]
    # the binding has no url of its own: the endpoint cannot go while it is declared
    problem(await agent.request("PATCH", path, json={"endpointUrl": None}), 422)
    cleared = await agent.request("PATCH", path, json={"protocols": [], "endpointUrl": None})
    assert cleared.json()["protocols"] == []
    assert await count(hub, AgentLabel) == 0


async def test_discovery_filters_by_protocol_with_the_other_filters(
    make_agent: MakeAgent,
) -> None:
    await make_agent("plain", endpointUrl=ENDPOINT, skills=SKILLS[:1])
    await make_agent(
        "bridged",
        endpointUrl=ENDPOINT,
        skills=SKILLS[1:],
        protocols=[{"protocol": "aip"}, {"protocol": "a2a", "url": A2A_URL}],
    )
    await make_agent("a2a-only", protocols=[{"protocol": "a2a", "url": A2A_URL}], skills=SKILLS)
    await make_agent("unreachable")
    caller = await make_agent("caller")

    async def found(**params: Any) -> list[str]:
        answer = await caller.request("GET", "/v1/agents", params=params)
        assert answer.status_code == 200, answer.text
        return sorted(a["name"] for a in answer.json()["items"])

    assert await found(protocol="aip") == ["bridged", "plain"]
    assert await found(protocol="a2a") == ["a2a-only", "bridged"]
    assert await found(protocol="a2a", skill="translate") == ["a2a-only"]
    assert await found(protocol="aip", tag="translation") == ["plain"]
    assert await found(protocol="a2a", q="summaries") == ["a2a-only", "bridged"]
    problem(await caller.request("GET", "/v1/agents", params={"protocol": "mcp"}), 422)


async def test_agent_card_route_serves_a_card_a2a_sdk_reads(make_agent: MakeAgent) -> None:
    agent = await make_agent(
        "bilingual",
        version="2.1.0",
        provider="acme",
        skills=SKILLS,
        protocols=[{"protocol": "a2a", "url": A2A_URL}],
    )
    reader = await make_agent("reader")
    response = await reader.request("GET", f"/v1/agents/{agent.agent_id}/agent-card.json")
    assert response.status_code == 200, response.text
    served = response.json()
    registry = AgentCard.model_validate(
        (await reader.request("GET", f"/v1/agents/{agent.agent_id}")).json()
    )
    unsigned = {k: v for k, v in served.items() if k != "signatures"}
    assert unsigned == card_json(a2a_card(registry, hub_url=HUB_BASE))  # the kit's builder
    parsed = parse_agent_card(dict(served))  # a2a-sdk's own resolver
    validate_proto_required_fields(parsed)
    assert parsed == ParseDict(served, A2aCard(), ignore_unknown_fields=True)
    assert parsed.name == "bilingual" and parsed.version == "2.1.0"
    assert parsed.provider.organization == "acme"
    assert [
        (i.url, i.protocol_binding, i.protocol_version) for i in parsed.supported_interfaces
    ] == [
        (A2A_URL, "JSONRPC", "1.0"),
        (A2A_URL, "JSONRPC", "0.3"),
    ]
    assert parsed.capabilities.streaming and parsed.capabilities.push_notifications
    # signed by the hub's key (a2a-sdk's verifier, the hub's JWKS); any change breaks it
    jwks = (await reader.request("GET", "/.well-known/jwks.json")).json()
    assert check_card_signature(parsed, jwks) is True
    parsed.name = "impostor"
    with pytest.raises(CardSignatureError):
        check_card_signature(parsed, jwks)
    parsed.name = "bilingual"
    forged = sign_card(
        parse_agent_card(unsigned),
        ec.generate_private_key(ec.SECP256R1()),
        kid=jwks["keys"][0]["kid"],
        jwks_url="https://evil.example/jwks.json",
    )
    with pytest.raises(CardSignatureError):
        check_card_signature(forged, jwks)
    assert check_card_signature(parse_agent_card(unsigned), jwks) is False
    oauth = parsed.security_schemes["oauth2"].oauth2_security_scheme
    assert oauth.flows.client_credentials.token_url == f"{HUB_BASE}/v1/oauth/token"
    assert [s.id for s in parsed.skills] == ["translate", "summarise"]
    assert list(parsed.skills[0].output_modes) == ["text/plain", "application/pdf"]
    assert list(parsed.default_input_modes) == ["text/plain", "text/markdown"]
    assert list(parsed.default_output_modes) == ["text/plain", "application/pdf"]
    schemes = parsed.security_schemes
    assert schemes["callToken"].http_auth_security_scheme.scheme == "bearer"
    assert schemes["callToken"].http_auth_security_scheme.bearer_format == "JWT"
    assert schemes["mtls"].HasField("mtls_security_scheme")
    assert [set(r.schemes) for r in parsed.security_requirements] == [
        {"callToken"},
        {"mtls"},
        {"oauth2"},
    ]  # any one will do
    # a v1.0 document: one key a security scheme (its oneOf), no v0.3 fields
    assert all(len(scheme) == 1 for scheme in served["securitySchemes"].values())
    assert "url" not in served and "protocolVersion" not in served
    # a client that names v0.3 reads the same card through its legacy fields, merged in as
    # a2a-sdk's card route merges them, and its signature still verifies
    path = f"/v1/agents/{agent.agent_id}/agent-card.json"
    for asked in ({"headers": {"A2A-Version": "0.3"}}, {"params": {"A2A-Version": "0.3"}}):
        legacy = (await reader.request("GET", path, **asked)).json()
        assert (legacy["url"], legacy["protocolVersion"]) == (A2A_URL, "0.3")
        assert legacy["securitySchemes"]["mtls"]["type"] == "mutualTLS"
        assert check_card_signature(parse_agent_card(legacy), jwks) is True
    named = (await reader.request("GET", path, headers={"A2A-Version": "1.0"})).json()
    assert {k: v for k, v in named.items() if k != "signatures"} == unsigned


async def test_agent_card_route_404s(make_agent: MakeAgent, client: httpx.AsyncClient) -> None:
    aip_only = await make_agent("aip-only", endpointUrl=ENDPOINT)
    gone = await make_agent("gone", protocols=[{"protocol": "a2a", "url": A2A_URL}])
    reader = await make_agent("reader")
    no_binding = problem(
        await reader.request("GET", f"/v1/agents/{aip_only.agent_id}/agent-card.json"), 404
    )
    assert no_binding["type"].endswith("/no-a2a-binding")
    assert (await gone.request("DELETE", f"/v1/agents/{gone.agent_id}")).status_code == 204
    for agent_id in (gone.agent_id, "1.2.156.3088.1.AGH.NOBODY"):
        unknown = problem(
            await reader.request("GET", f"/v1/agents/{agent_id}/agent-card.json"), 404
        )
        assert not unknown["type"].endswith("/no-a2a-binding")
    problem(await client.get(f"/v1/agents/{aip_only.agent_id}/agent-card.json"), 401)


def test_a2a_card_falls_back_where_the_registry_card_is_silent() -> None:
    registry = AgentCard.model_validate(
        {
            "id": "x",
            "name": "terse",
            "description": "",
            "skills": [{"id": "s", "name": "S"}],
            "publicJwk": {},
            "status": "offline",
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
        }
    )
    built = a2a_card(registry, url=A2A_URL)
    validate_proto_required_fields(built)
    assert (built.description, built.version) == ("terse", "0.0.0")
    assert not built.HasField("provider")
    assert list(built.default_input_modes) == ["text/plain", "application/json"]
    assert (built.skills[0].description, list(built.skills[0].tags)) == ("S", ["s"])


async def test_kit_card_model_reads_protocols(make_agent: MakeAgent) -> None:
    agent: HubClient = await make_agent("kit", protocols=[{"protocol": "a2a", "url": A2A_URL}])
    found = await agent.request("GET", f"/v1/agents/{agent.agent_id}")
    parsed = AgentCard.model_validate(found.json())
    assert [(p.protocol, p.url) for p in parsed.protocols] == [("a2a", A2A_URL)]
