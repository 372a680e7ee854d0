"""A hub group through A2A, for a kit agent: an a2a-sdk client of the group's A2A endpoint
(``docs/reference/a2a-group-extension.md``), authenticated with the agent's own hub access
token, so a kit agent takes part in a group exactly as any A2A client does::

    card, client = await group_client(agent.hub, group_id, http)
    async for event in client.subscribe(SubscribeToTaskRequest(id=group_id)):
        ...

The extension's fields are in each message's and event's metadata under ``EXTENSION_URI``;
``extension_fields`` reads them.
"""

from __future__ import annotations

from typing import Any

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.client.auth import AuthInterceptor, CredentialService
from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict

from agenthub.a2a.card import check_card_signature
from agenthub.hub import HubClient
from agenthub.paths import segment

EXTENSION_URI = "https://agenthub.dev/a2a/ext/group/v1"


class _HubToken(CredentialService):
    """The agent's hub access token, fresh for each call (the hub client renews it)."""

    def __init__(self, hub: HubClient) -> None:
        self.hub = hub

    async def get_credentials(self, security_scheme_name: str, context: Any) -> str | None:
        return await self.hub.access_token()


async def group_client(
    hub: HubClient, group_id: str, http: httpx.AsyncClient, *, streaming: bool = True
) -> tuple[AgentCard, Client]:
    """The group's signed Agent Card (its signature checked against the hub's keys) and an
    a2a-sdk client of its endpoint, over ``http``, as the agent of ``hub``."""
    token = await hub.access_token()
    card = await A2ACardResolver(http, hub.base_url).get_agent_card(
        f"/v1/groups/{segment(group_id)}/agent-card.json",
        http_kwargs={"headers": {"Authorization": f"Bearer {token}"}},
    )
    check_card_signature(card, await hub.hub_keys())
    client = ClientFactory(ClientConfig(httpx_client=http, streaming=streaming)).create(
        card, interceptors=[AuthInterceptor(_HubToken(hub))]
    )
    return card, client


def extension_fields(metadata: Any) -> dict[str, Any]:
    """The group extension's fields of a message's or event's ``metadata`` (a protobuf
    ``Struct``): ``seq``, ``kind``, ``source``… (numbers come back as floats)."""
    found = MessageToDict(metadata).get(EXTENSION_URI)
    return found if isinstance(found, dict) else {}
