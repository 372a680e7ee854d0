"""Any A2A client calls a kit partner with a bearer token from the hub's OAuth token endpoint:
the token fetched by authlib's OAuth client (client credentials, as its docs show:
``private_key_jwt`` for a registered agent, ``client_secret_basic`` for an application the
operator registered), the call made by a2a-sdk's client with its ``AuthInterceptor``, which
reads the scheme from the partner's card. Forged, expired, misdirected and revoked tokens
are 401."""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, ClientFactory
from a2a.client.auth import AuthInterceptor, CredentialService
from a2a.helpers import get_artifact_text, new_text_part
from a2a.types import Message, Role, SendMessageRequest, Task, TaskState

from agenthub import Agent, AgentKey
from agenthub.protocol.oauth import ACCESS_TOKEN_TYPE
from app.auth.jws import sign
from app.auth.keys import read_hub_keys
from tests.support import LOOPBACK
from tests.support.hub import OPERATOR_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent, hub_task, settled
from tests.support.oauth import agent_token, application_token

OAUTH_SCHEME = "oauth2"


class HubToken(CredentialService):
    """The credential a2a-sdk's ``AuthInterceptor`` asks for, by the card's scheme name."""

    def __init__(self, token: str) -> None:
        self.token = token

    async def get_credentials(self, security_scheme_name: str, context: Any) -> str | None:
        return self.token if security_scheme_name == OAUTH_SCHEME else None


async def send(partner: Agent, token: str, text: str) -> Task:
    """a2a-sdk's client, as its docs show: the card resolved, the interceptor adding the
    credential for the card's scheme."""
    assert partner.public_url is not None
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = await A2ACardResolver(http, partner.public_url).get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(
            card, interceptors=[AuthInterceptor(HubToken(token))]
        )
        message = Message(role=Role.ROLE_USER, message_id=f"m-{text}", parts=[new_text_part(text)])
        task: Task | None = None
        async for event in client.send_message(
            SendMessageRequest(message=message), context=ClientCallContext()
        ):
            if event.HasField("task"):
                task = event.task
    assert task is not None
    return task


async def raw_send(partner: Agent, token: str) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": "1",
        "method": "SendMessage",
        "params": {
            "message": {"role": "ROLE_USER", "messageId": "m-raw", "parts": [{"text": "x"}]}
        },
    }
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        return await http.post(
            str(partner.public_url),
            json=body,
            headers={"Authorization": f"Bearer {token}", "A2A-Version": "1.0"},
        )


async def partner_of(make_live_agent: MakeLiveAgent) -> Agent:
    return await make_live_agent("a2a-partner", EchoHandler(), https=False, a2a=True)


async def test_the_partners_card_names_the_hubs_token_endpoint(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub
) -> None:
    partner = await partner_of(make_live_agent)
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        card = await A2ACardResolver(http, str(partner.public_url)).get_agent_card()
    flow = card.security_schemes[OAUTH_SCHEME].oauth2_security_scheme.flows.client_credentials
    assert flow.token_url == f"{live_hub.url}/v1/oauth/token"
    assert dict(flow.scopes).keys() == {"call"}
    assert any(OAUTH_SCHEME in r.schemes for r in card.security_requirements)


async def test_an_agents_hub_token_calls_a_kit_partner(make_live_agent: MakeLiveAgent) -> None:
    partner = await partner_of(make_live_agent)
    caller = await make_live_agent("caller")
    token = await agent_token(caller, partner.agent_id)
    task = await send(partner, token, "hello")
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    assert "hello" in get_artifact_text(task.artifacts[0])
    await settled(partner)
    recorded = await hub_task(partner, task.id)
    assert recorded["state"] == "completed"
    session = (await partner.hub.request("GET", f"/v1/sessions/{recorded['sessionId']}")).json()
    assert session["bridge"]["callerId"] == caller.agent_id  # the hub records who called
    # by its endpoint URL too (RFC 8707: a resource is a URI)
    by_url = await agent_token(caller, str(partner.public_url))
    assert (await send(partner, by_url, "again")).status.state == TaskState.TASK_STATE_COMPLETED


async def test_an_applications_hub_token_calls_a_kit_partner(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub
) -> None:
    partner = await partner_of(make_live_agent)
    _, token = await application_token(live_hub.url, partner.agent_id)
    task = await send(partner, token, "from an app")
    assert task.status.state == TaskState.TASK_STATE_COMPLETED


async def test_forged_expired_misdirected_and_revoked_tokens_are_401(
    make_live_agent: MakeLiveAgent, live_hub: LiveHub
) -> None:
    partner = await partner_of(make_live_agent)
    other = await partner_of(make_live_agent)
    caller = await make_live_agent("caller")
    hub_keys = read_hub_keys(live_hub.settings.signing_key_file)
    good = await agent_token(caller, partner.agent_id)
    now = int(time.time())
    claims = {
        "iss": live_hub.url,
        "sub": caller.agent_id,
        "client_id": caller.agent_id,
        "aud": partner.agent_id,
        "iat": now - 600,
        "exp": now - 300,
        "jti": secrets.token_urlsafe(8),
        "scope": "call",
        "client_kind": "agent",
        "cnf": {"jkt": caller.key.thumbprint},
    }
    expired = sign(claims, hub_keys.signing_key, kid=hub_keys.kid, typ=ACCESS_TOKEN_TYPE)
    forger = AgentKey.generate()  # claims of a good token, signed by another key
    forged = forger.sign({**claims, "exp": now + 300}, kid=hub_keys.kid, typ=ACCESS_TOKEN_TYPE)
    wide = sign(
        {**claims, "exp": now + 300, "scope": "admin"},
        hub_keys.signing_key,
        kid=hub_keys.kid,
        typ=ACCESS_TOKEN_TYPE,
    )
    for bad in (
        expired,
        forged,
        wide,
        await agent_token(caller, other.agent_id),  # for another agent
        good[:-4] + "AAAA",
    ):
        refused = await raw_send(partner, bad)
        assert refused.status_code == 401, refused.text
        assert refused.headers["www-authenticate"] == "Bearer"
    assert (await raw_send(partner, good)).status_code == 200
    # revoked before the partner first asked: an application, then a deregistered agent
    client_id, app_token = await application_token(live_hub.url, other.agent_id)
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        revoked = await http.delete(
            f"{live_hub.url}/v1/operator/oauth-clients/{client_id}",
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
        assert revoked.status_code == 204
    assert (await raw_send(other, app_token)).status_code == 401
    leaving = await make_live_agent("leaving")
    leaving_token = await agent_token(leaving, other.agent_id)
    await leaving.hub.deregister()
    assert (await raw_send(other, leaving_token)).status_code == 401
