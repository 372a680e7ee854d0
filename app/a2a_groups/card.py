"""A group's A2A Agent Card: the group as one agent, its JSON-RPC endpoint at the hub, the
hub's OAuth client-credentials scheme (the token's ``resource``: that endpoint), and the
group extension with its parameters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    ClientCredentialsOAuthFlow,
    OAuth2SecurityScheme,
    OAuthFlows,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)
from google.protobuf.struct_pb2 import Struct

from agenthub.a2a.card import OAUTH_SCHEME, card_json, sign_card
from agenthub.protocol.auth import JWKS_PATH
from agenthub.protocol.oauth import CALL_SCOPE, METADATA_PATH, TOKEN_PATH
from app.a2a_groups.wire import EXTENSION_URI
from app.auth.keys import HubKeys
from app.groups.models import Group

MODES = ["text/plain", "application/json"]
VERSION = "1.0.0"


def _params(group: Group) -> Struct:
    params = Struct()
    params.update(
        {
            "groupId": group.id,
            "sessionId": group.session_id,
            "joinPolicy": group.join_policy,
            "speakingPolicy": group.speaking_policy,
            "conversationState": group.conversation_state,
        }
    )
    return params


def group_card(
    group: Group, members: Mapping[str, str], *, hub_url: str, url: str, keys: HubKeys
) -> dict[str, Any]:
    """The signed card of ``group`` (``members``: its active members' ids and names), served
    at ``hub_url``, its JSON-RPC endpoint at ``url``."""
    named = ", ".join(f"{name} ({agent_id})" for agent_id, name in members.items())
    description = (group.goal or group.name) + (f" Members: {named}." if named else "")
    flow = ClientCredentialsOAuthFlow(
        token_url=f"{hub_url}{TOKEN_PATH}", scopes={CALL_SCOPE: "Take part in this group."}
    )
    oauth = OAuth2SecurityScheme(
        description=(
            "A bearer token from the agenthub hub's OAuth 2.0 token endpoint (client "
            "credentials, a registered agent by private_key_jwt) with resource = this "
            "group's A2A URL; the hub's own access token for the agent serves too."
        ),
        flows=OAuthFlows(client_credentials=flow),
        oauth2_metadata_url=f"{hub_url}{METADATA_PATH}",
    )
    skills = [
        AgentSkill(
            id="conversation",
            name=group.name,
            description=group.goal or group.name,
            tags=["group", group.speaking_policy],
            input_modes=MODES,
            output_modes=MODES,
        )
    ]
    skills += [
        AgentSkill(
            id=f"member:{agent_id}",
            name=name,
            description=f"A member of the group: {name} ({agent_id}).",
            tags=["member"],
        )
        for agent_id, name in members.items()
    ]
    card = AgentCard(
        name=group.name,
        description=description,
        version=VERSION,
        supported_interfaces=[
            AgentInterface(protocol_binding="JSONRPC", url=url, protocol_version="1.0")
        ],
        provider=AgentProvider(organization="agenthub", url=hub_url),
        capabilities=AgentCapabilities(
            streaming=True,
            push_notifications=False,
            extensions=[
                AgentExtension(
                    uri=EXTENSION_URI,
                    description="A hub group: senders, the resume cursor, membership events.",
                    required=False,
                    params=_params(group),
                )
            ],
        ),
        security_schemes={OAUTH_SCHEME: SecurityScheme(oauth2_security_scheme=oauth)},
        security_requirements=[
            SecurityRequirement(schemes={OAUTH_SCHEME: StringList(list=[CALL_SCOPE])})
        ],
        default_input_modes=MODES,
        default_output_modes=MODES,
        skills=skills,
    )
    signed = sign_card(card, keys.private_key, kid=keys.kid, jwks_url=f"{hub_url}{JWKS_PATH}")
    return card_json(signed)
