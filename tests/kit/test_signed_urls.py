"""What the hub signs and hands out names the hub where it is (``AGENTHUB_PUBLIC_URL``, else
the address it serves at), never the ``Host`` header of the request that asked: a caller's
to choose. Signed cards say when they were signed and until when they hold."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import httpx
import pytest
from a2a.client.card_resolver import parse_agent_card
from a2a.types import AgentCard as A2aCard
from cryptography.hazmat.primitives.asymmetric import ec

from agenthub.a2a.card import check_card_signature, sign_card
from agenthub.errors import CardSignatureError
from agenthub.protocol.jwk import ec_public_jwk as jwk_of
from tests.support import LOOPBACK
from tests.support.kit import LiveHub, MakeLiveAgent

EVIL = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}


def urls_in(document: Any) -> list[str]:
    """Every string in ``document`` that is a URL."""
    if isinstance(document, dict):
        return [u for value in document.values() for u in urls_in(value)]
    if isinstance(document, list):
        return [u for value in document for u in urls_in(value)]
    return [document] if isinstance(document, str) and "://" in document else []


def signed_header(card: dict[str, Any]) -> dict[str, Any]:
    (signature,) = card["signatures"]
    protected = signature["protected"]
    header: dict[str, Any] = json.loads(base64.urlsafe_b64decode(protected + "=="))
    return header


async def test_what_the_hub_signs_names_the_hub_not_the_host_header(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    partner = await make_live_agent("partner", serve=False, https=False, a2a=True)
    owner = await make_live_agent("owner", serve=False)
    session = owner.hub.raise_or_json(
        await owner.hub.request("POST", "/v1/sessions", json={"receivers": []})
    )
    group_id = (await owner.hub.groups.create(session["id"], "planning", join_policy="open")).id
    await partner.hub.groups.join(group_id)
    token = await partner.hub.access_token()
    hub = live_hub.url.rstrip("/")  # http://127.0.0.1:<port>: the address it serves at
    async with httpx.AsyncClient(timeout=LOOPBACK, base_url=hub) as http:
        jwks = (await http.get("/.well-known/jwks.json")).json()
        auth = {**EVIL, "Authorization": f"Bearer {token}"}
        agent_card = (
            await http.get(f"/v1/agents/{partner.agent_id}/agent-card.json", headers=auth)
        ).json()
        group_card = (await http.get(f"/v1/groups/{group_id}/agent-card.json", headers=auth)).json()
        metadata = (await http.get("/.well-known/oauth-authorization-server", headers=EVIL)).json()
        discovery = (await http.get("/.well-known/agenthub.json", headers=EVIL)).json()
    for document in (agent_card, group_card, metadata, discovery):
        found = urls_in(document)
        assert found and not [u for u in found if "evil.example" in u], found
    assert metadata["issuer"] == hub and metadata["token_endpoint"].startswith(hub)
    assert group_card["supportedInterfaces"][0]["url"] == f"{hub}/v1/groups/{group_id}/a2a"
    for card in (agent_card, group_card):
        header = signed_header(card)
        assert header["jku"] == f"{hub}/.well-known/jwks.json"
        now = time.time()
        assert now - 60 <= header["iat"] <= now + 60 < header["exp"] <= now + 3600 + 60
        assert check_card_signature(parse_agent_card(card), jwks)
        flows = card["securitySchemes"]["oauth2"]["oauth2SecurityScheme"]["flows"]
        assert flows["clientCredentials"]["tokenUrl"] == f"{hub}/v1/oauth/token"


def test_a_card_whose_signature_has_expired_is_refused() -> None:
    """A card signed more than its lifetime ago is fetched again, not trusted for ever."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = jwk_of(key.public_key())
    jwks = {"keys": [{**public, "kid": "k", "alg": "ES256", "use": "sig"}]}

    def signed(lifetime: int) -> Any:
        card = A2aCard(name="echo", description="echoes", version="1.0.0")
        return sign_card(card, key, kid="k", jwks_url="x", lifetime_seconds=lifetime)

    assert check_card_signature(signed(3600), jwks)
    with pytest.raises(CardSignatureError, match="expired"):
        check_card_signature(signed(-3600), jwks)
