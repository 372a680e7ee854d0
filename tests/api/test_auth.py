"""POST /v1/auth/token and the access token on every /v1 route: each 401 path, signed for real."""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
from jose import jws as jose_jws
from sqlalchemy import func, select

from agenthub import AgentKey, HubClient
from app.auth.models import UsedJti
from tests.support.hub import ISSUER, MakeAgent, problem
from tests.support.parts import parts


def claims_for(kit: HubClient, **overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": kit.agent_id,
        "sub": kit.agent_id,
        "aud": ISSUER,
        "iat": now,
        "exp": now + 60,
        "jti": secrets.token_urlsafe(12),
        "nonce": secrets.token_urlsafe(12),
    }
    claims.update(overrides)
    return {k: v for k, v in claims.items() if v is not None}


async def exchange(client: httpx.AsyncClient, assertion: str) -> httpx.Response:
    return await client.post("/v1/auth/token", json={"assertion": assertion})


async def test_token_echoes_nonce_and_is_signed_by_hub_key(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    claims = claims_for(kit)
    response = await exchange(client, kit.key.sign(claims, kid=kit.agent_id or ""))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["tokenType"] == "bearer" and body["expiresIn"] > 0
    jwks = (await client.get("/.well-known/jwks.json")).json()
    payload = jose_jws.verify(body["accessToken"], jwks["keys"][0], algorithms=["ES256"])
    import json

    access = json.loads(payload)
    assert access["nonce"] == claims["nonce"]
    assert access["sub"] == kit.agent_id
    assert access["iss"] == access["aud"] == ISSUER
    assert access["exp"] > access["iat"] and access["jti"]


async def test_replayed_assertion_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent, hub: Any
) -> None:
    kit = await make_agent("alice")
    assertion = kit.key.sign(claims_for(kit), kid=kit.agent_id or "")
    assert (await exchange(client, assertion)).status_code == 200
    body = problem(await exchange(client, assertion), 401)
    assert "replay" in body["detail"]
    async with parts(hub).session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(UsedJti)) == 1


async def test_expired_assertion_is_401(client: httpx.AsyncClient, make_agent: MakeAgent) -> None:
    kit = await make_agent("alice")
    now = int(time.time())
    assertion = kit.key.sign(claims_for(kit, iat=now - 120, exp=now - 60), kid=kit.agent_id or "")
    assert "expired" in problem(await exchange(client, assertion), 401)["detail"]


async def test_too_long_lived_assertion_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    now = int(time.time())
    assertion = kit.key.sign(claims_for(kit, iat=now, exp=now + 301), kid=kit.agent_id or "")
    assert "300" in problem(await exchange(client, assertion), 401)["detail"]


async def test_assertion_lifetime_of_exactly_300_s_is_accepted(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    now = int(time.time())
    assertion = kit.key.sign(claims_for(kit, iat=now, exp=now + 300), kid=kit.agent_id or "")
    assert (await exchange(client, assertion)).status_code == 200


async def test_future_issued_assertion_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    now = int(time.time())
    assertion = kit.key.sign(claims_for(kit, iat=now + 600, exp=now + 700), kid=kit.agent_id or "")
    problem(await exchange(client, assertion), 401)


async def test_wrong_audience_assertion_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    assertion = kit.key.sign(claims_for(kit, aud="another-hub"), kid=kit.agent_id or "")
    assert "aud" in problem(await exchange(client, assertion), 401)["detail"]


async def test_assertion_signed_by_another_key_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    intruder = AgentKey.generate()
    assertion = intruder.sign(claims_for(kit), kid=kit.agent_id or "")
    assert "signature" in problem(await exchange(client, assertion), 401)["detail"]


async def test_assertion_of_unknown_agent_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    claims = claims_for(kit, iss="1.2.156.3088.1.AGH.NOBODY", sub="1.2.156.3088.1.AGH.NOBODY")
    assertion = kit.key.sign(claims, kid="1.2.156.3088.1.AGH.NOBODY")
    assert "no registered agent" in problem(await exchange(client, assertion), 401)["detail"]


async def test_assertion_for_another_agent_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    # signed with alice's key under alice's kid, but claiming to be bob
    claims = claims_for(alice, iss=bob.agent_id, sub=bob.agent_id)
    problem(await exchange(client, alice.key.sign(claims, kid=alice.agent_id or "")), 401)


async def test_assertion_missing_claims_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    for missing in ("jti", "nonce", "exp", "aud"):
        claims = claims_for(kit, **{missing: None})
        body = problem(await exchange(client, kit.key.sign(claims, kid=kit.agent_id or "")), 401)
        assert missing in body["detail"]


async def test_garbage_assertions_are_401_never_500(client: httpx.AsyncClient) -> None:
    for garbage in ("x", "a.b.c", "....", "eyJhbGciOiJub25lIn0.e30.", "é" * 50, "a" * 9000):
        response = await exchange(client, garbage)
        assert response.status_code in (401, 422), response.text
        assert response.headers["content-type"].startswith("application/problem+json")


async def test_unsigned_alg_none_assertion_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    import base64
    import json

    kit = await make_agent("alice")

    def part(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    token = f"{part({'alg': 'none', 'kid': kit.agent_id})}.{part(claims_for(kit))}."
    problem(await exchange(client, token), 401)


async def test_v1_route_without_token_is_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/agents")
    problem(response, 401)
    assert response.headers["www-authenticate"] == "Bearer"


async def test_malformed_authorization_header_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    await make_agent("alice")
    for header in ("Basic abc", "Bearer", "Bearer not-a-token", "token"):
        problem(await client.get("/v1/agents", headers={"Authorization": header}), 401)


async def test_assertion_is_not_an_access_token(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    assertion = kit.key.sign(claims_for(kit), kid=kit.agent_id or "")
    response = await client.get("/v1/agents", headers={"Authorization": f"Bearer {assertion}"})
    problem(response, 401)


async def test_tampered_access_token_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    alice, bob = await make_agent("alice"), await make_agent("bob")
    token = await alice.access_token()
    header, payload, signature = token.split(".")
    import base64
    import json

    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["sub"] = bob.agent_id
    forged_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    forged = f"{header}.{forged_payload}.{signature}"
    problem(await client.get("/v1/agents", headers={"Authorization": f"Bearer {forged}"}), 401)


async def test_access_token_from_another_hub_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent, tmp_path: Any
) -> None:
    from app.auth.keys import load_or_create_hub_keys
    from app.auth.tokens import issue_access_token

    kit = await make_agent("alice")
    other = load_or_create_hub_keys(tmp_path / "other-hub.pem")
    token = issue_access_token(
        other,
        issuer=ISSUER,
        agent_id=kit.agent_id or "",
        key_thumbprint=kit.key.thumbprint,
        nonce="n",
        lifetime_seconds=60,
    )
    problem(await client.get("/v1/agents", headers={"Authorization": f"Bearer {token}"}), 401)


async def test_expired_access_token_is_401(
    client: httpx.AsyncClient, make_agent: MakeAgent, hub: Any
) -> None:
    from app.auth.jws import sign

    kit = await make_agent("alice")
    keys = parts(hub).keys
    now = int(time.time())
    token = sign(
        {
            "iss": ISSUER,
            "aud": ISSUER,
            "sub": kit.agent_id,
            "iat": now - 100,
            "exp": now - 10,
            "jti": "j",
            "nonce": "n",
            "cnf": {"jkt": kit.key.thumbprint},
        },
        keys.signing_key,
        kid=keys.kid,
    )
    body = problem(
        await client.get("/v1/agents", headers={"Authorization": f"Bearer {token}"}), 401
    )
    assert "expired" in body["detail"]


async def test_deregistration_voids_tokens_at_once(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    token = await kit.access_token()
    headers = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/v1/agents", headers=headers)).status_code == 200
    await kit.deregister()
    problem(await client.get("/v1/agents", headers=headers), 401)
    # and no new token either
    problem(await exchange(client, kit.key.sign(claims_for(kit), kid=kit.agent_id or "")), 401)


async def test_key_rotation_voids_old_tokens_and_old_key(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    old_key = kit.key
    old_token = await kit.access_token()
    new_key = AgentKey.generate()
    card = await kit.rotate_key(new_key)
    assert card.public_jwk == new_key.public_jwk
    problem(await client.get("/v1/agents", headers={"Authorization": f"Bearer {old_token}"}), 401)
    # the old key can no longer get a token; the new one can
    problem(await exchange(client, old_key.sign(claims_for(kit), kid=kit.agent_id or "")), 401)
    new_token = await kit.access_token()
    assert new_token != old_token
    ok = await client.get("/v1/agents", headers={"Authorization": f"Bearer {new_token}"})
    assert ok.status_code == 200


async def test_assertion_times_that_are_not_integers_are_401(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("alice")
    now = int(time.time())
    for name, value in (
        ("exp", str(now + 60)),  # a numeric string
        ("exp", now + 60.5),
        ("iat", str(now)),
        ("exp", True),
    ):
        claims = claims_for(kit, **{name: value})
        body = problem(await exchange(client, kit.key.sign(claims, kid=kit.agent_id or "")), 401)
        assert name in body["detail"], (name, value, body)
    good = kit.key.sign(claims_for(kit), kid=kit.agent_id or "")
    assert (await exchange(client, good)).is_success
