"""A third party's OAuth client, as authlib's docs show it: client credentials at the hub's
token endpoint, with ``private_key_jwt`` for a registered agent or a client secret for an
application the operator registered."""

from __future__ import annotations

import httpx
from authlib.integrations.httpx_client import AsyncOAuth2Client
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from joserfc.jwk import ECKey

from agenthub import Agent
from tests.support import LOOPBACK
from tests.support.hub import OPERATOR_TOKEN


async def token_url(hub_url: str) -> str:
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        metadata = (await http.get(f"{hub_url}/.well-known/oauth-authorization-server")).json()
    url: str = metadata["token_endpoint"]
    return url


async def agent_token(caller: Agent, resource: str) -> str:
    """authlib's client credentials with private_key_jwt, the agent's key as its key."""
    url = await token_url(caller.hub.base_url)
    async with AsyncOAuth2Client(
        caller.agent_id,
        ECKey.import_key(caller.key.private_pem()),
        token_endpoint_auth_method="private_key_jwt",
        timeout=LOOPBACK,
    ) as oauth:
        oauth.register_client_auth_method(PrivateKeyJWT(url, alg="ES256"))
        token = await oauth.fetch_token(url, grant_type="client_credentials", resource=resource)
    return str(token["access_token"])


async def application_token(hub_url: str, resource: str) -> tuple[str, str]:
    """An application the operator registers, and authlib's token for it (client_secret_basic)."""
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        made = await http.post(
            f"{hub_url}/v1/operator/oauth-clients",
            json={"name": "a dashboard"},
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
    issued = made.json()
    url = await token_url(hub_url)
    async with AsyncOAuth2Client(
        issued["clientId"], issued["clientSecret"], timeout=LOOPBACK
    ) as oauth:
        token = await oauth.fetch_token(url, grant_type="client_credentials", resource=resource)
    return issued["clientId"], str(token["access_token"])
