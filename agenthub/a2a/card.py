"""An agent's registry card as an A2A Agent Card, in a2a-sdk's own types.

The hub serves it for every agent with an A2A binding (``GET /v1/agents/{id}/agent-card.json``)
and a kit partner at ``/.well-known/agent-card.json``; both build it here, from the same
registry card, so the two never differ. Where our card leaves a field the A2A spec requires
empty (a description, a skill's tags), it is filled from what the card does say: a2a-sdk
accepts such cards but logs them as not spec-compliant.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any, cast

from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    ClientCredentialsOAuthFlow,
    HTTPAuthSecurityScheme,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OAuthFlows,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)
from a2a.utils.constants import VERSION_HEADER
from a2a.utils.signing import (
    ProtectedHeader,
    SignatureVerificationError,
    create_agent_card_signer,
    create_signature_verifier,
)
from google.protobuf.json_format import MessageToDict, ParseDict
from jwt import PyJWK
from jwt.exceptions import PyJWKError

from agenthub.errors import A2aBindingMissing as A2aBindingMissing  # re-exported: its old home
from agenthub.errors import CardSignatureError
from agenthub.protocol import agents
from agenthub.protocol.oauth import CALL_SCOPE, METADATA_PATH, TOKEN_PATH

__all__ = [
    "CALL_TOKEN_SCHEME",
    "MTLS_SCHEME",
    "OAUTH_SCHEME",
    "A2aBindingMissing",
    "a2a_binding_url",
    "a2a_card",
    "card_json",
    "check_card_signature",
    "requested_version",
    "sign_card",
]

DEFAULT_VERSION = "0.0.0"
WHOLE_AGENT_SKILL = "agent"
"""The id of the one skill a card without skills shows (``_whole_agent``)."""
DEFAULT_MODES = ("text/plain", "application/json")
JSONRPC = "JSONRPC"
HTTP_JSON = "HTTP+JSON"
PROTOCOL_VERSIONS = ("1.0", "0.3")
"""One route answers both method sets (a2a-sdk's v0.3 compatibility layer); a v0.3 client
finds its interface by ``protocolVersion`` 0.3 (``to_compat_agent_card``)."""
CALL_TOKEN_SCHEME = "callToken"  # noqa: S105 (a scheme name, no secret)
MTLS_SCHEME = "mtls"
OAUTH_SCHEME = "oauth2"
OAUTH_DESCRIPTION = (
    "A bearer token from the agenthub hub's OAuth 2.0 token endpoint (client credentials; a "
    "registered agent authenticates with private_key_jwt, an application the hub's operator "
    "registered with its client secret), for this agent: resource = its id or endpoint URL."
)
BEARER_DESCRIPTION = (
    "An agenthub call token: a compact JWS (ES256) signed with the caller's registered key, "
    "iss = sub = the caller's agent id, aud = this agent's id, exp at most 300 s after iat, "
    "a single-use jti, and bound to the call by htm, htu (the URL called) and bodySha256 "
    "(base64url SHA-256 of the body). Callers registered at the hub only."
)
MTLS_DESCRIPTION = (
    "Mutual TLS with a client certificate issued by the agenthub hub's CA (CN = the caller's "
    "AIC, SAN URI acps://{AIC}); it authenticates the caller in place of a call token."
)


def a2a_binding_url(card: agents.AgentCard) -> str | None:
    """The URL of the card's first A2A JSON-RPC binding, if it has one."""
    for binding in card.protocols:
        if binding.protocol == "a2a" and binding.transport in (None, JSONRPC):
            return binding.url
    return None


def _interfaces(card: agents.AgentCard, jsonrpc_url: str) -> list[AgentInterface]:
    """The JSON-RPC interfaces at ``jsonrpc_url``, then those of the card's other A2A
    bindings (HTTP+JSON), each for every version served."""
    where = [(JSONRPC, jsonrpc_url)]
    where += [
        (b.transport, b.url)
        for b in card.protocols
        if b.protocol == "a2a" and b.transport not in (None, JSONRPC)
    ]
    return [
        AgentInterface(protocol_binding=transport, url=url, protocol_version=version)
        for transport, url in dict.fromkeys(where)
        for version in PROTOCOL_VERSIONS
    ]


def _skill(skill: agents.Skill) -> AgentSkill:
    return AgentSkill(
        id=skill.id,
        name=skill.name,
        description=skill.description or skill.name,
        tags=skill.tags or [skill.id],
        input_modes=skill.input_types or [],
        output_modes=skill.output_types or [],
    )


def _whole_agent(card: agents.AgentCard) -> AgentSkill:
    """A card with no skills as one skill, the agent's whole description: A2A requires at
    least one (a2a-sdk warns of every card without)."""
    return AgentSkill(
        id=WHOLE_AGENT_SKILL,
        name=card.name,
        description=card.description or card.name,
        tags=[WHOLE_AGENT_SKILL],
    )


def _modes(per_skill: list[list[str] | None]) -> list[str]:
    """Every skill's types, in order of first mention; the defaults if none names any."""
    modes = list(dict.fromkeys(m for types in per_skill for m in types or []))
    return modes or list(DEFAULT_MODES)


def _security(hub_url: str | None) -> tuple[dict[str, SecurityScheme], list[SecurityRequirement]]:
    schemes = {
        CALL_TOKEN_SCHEME: SecurityScheme(
            http_auth_security_scheme=HTTPAuthSecurityScheme(
                scheme="bearer", bearer_format="JWT", description=BEARER_DESCRIPTION
            )
        ),
        MTLS_SCHEME: SecurityScheme(
            mtls_security_scheme=MutualTlsSecurityScheme(description=MTLS_DESCRIPTION)
        ),
    }
    if hub_url is not None:
        hub = hub_url.rstrip("/")
        flow = ClientCredentialsOAuthFlow(
            token_url=f"{hub}{TOKEN_PATH}", scopes={CALL_SCOPE: "Call this agent."}
        )
        schemes[OAUTH_SCHEME] = SecurityScheme(
            oauth2_security_scheme=OAuth2SecurityScheme(
                description=OAUTH_DESCRIPTION,
                flows=OAuthFlows(client_credentials=flow),
                oauth2_metadata_url=f"{hub}{METADATA_PATH}",
            )
        )
    # requirements are alternatives: any one scheme alone will do
    either = [
        SecurityRequirement(
            schemes={name: StringList(list=[CALL_SCOPE] if name == OAUTH_SCHEME else [])}
        )
        for name in schemes
    ]
    return schemes, either


def a2a_card(
    card: agents.AgentCard, *, url: str | None = None, hub_url: str | None = None
) -> AgentCard:
    """``card`` as A2A sees it; ``url``: where its A2A JSON-RPC is served (by default, the
    card's A2A binding); ``hub_url``: its hub, whose OAuth token endpoint the card names
    (none: no OAuth scheme). Raises ``A2aBindingMissing`` when there is no URL."""
    where = url or a2a_binding_url(card)
    if where is None:
        raise A2aBindingMissing(f"Agent {card.id} declares no A2A binding.")
    schemes, requirements = _security(hub_url)
    built = AgentCard(
        name=card.name,
        description=card.description or card.name,
        version=card.version or DEFAULT_VERSION,
        supported_interfaces=_interfaces(card, where),
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        security_schemes=schemes,
        security_requirements=requirements,
        default_input_modes=_modes([s.input_types for s in card.skills]),
        default_output_modes=_modes([s.output_types for s in card.skills]),
        skills=[_skill(s) for s in card.skills] or [_whole_agent(card)],
    )
    if card.provider:
        built.provider.CopyFrom(AgentProvider(organization=card.provider, url=where))
    return built


def card_json(card: AgentCard | dict[str, Any], *, version: str | None = None) -> dict[str, Any]:
    """The card as JSON for a client of A2A ``version`` (what it names in ``A2A-Version``,
    ``requested_version``): an A2A v1.0 ``AgentCard`` document, whose ``supportedInterfaces``
    still list the v0.3 one; for a client that names 0.3, as a2a-sdk's card route serves it
    to all (the v0.3 fields merged in beside the v1.0 ones, so an a2a-sdk 0.3 client reads
    it, and a v1.0 validator does not: a security scheme then has two keys)."""
    if isinstance(card, dict):
        card = ParseDict(card, AgentCard(), ignore_unknown_fields=True)
    if version is not None and version.startswith("0."):
        return agent_card_to_dict(card)
    shown: dict[str, Any] = MessageToDict(card)
    return shown


def requested_version(headers: Any, query: Any) -> str | None:
    """The A2A version a card's reader names (the ``A2A-Version`` header, or the request
    parameter of that name): None when it names none."""
    named = headers.get(VERSION_HEADER) or query.get(VERSION_HEADER)
    return str(named).strip() if named else None


CARD_SIGNATURE_SECONDS = 3600
"""How long the hub's signature on a card holds (its protected header's ``exp``): a card
fetched an hour ago is fetched again, not trusted for ever."""
CLOCK_SKEW_SECONDS = 60


def sign_card(
    card: AgentCard,
    private_key: Any,
    *,
    kid: str,
    jwks_url: str,
    lifetime_seconds: int = CARD_SIGNATURE_SECONDS,
) -> AgentCard:
    """``card`` with an A2A v1.0 signature (a JWS over its RFC 8785 canonical JSON, by
    a2a-sdk's own signer) by the hub's key: ``kid`` names it in ``jwks_url``; the protected
    header's ``iat`` and ``exp`` (RFC 7519 claims, in the header as RFC 7519 5.3 allows: the
    payload is the card) say when it was signed and until when it holds."""
    now = int(time.time())
    header: dict[str, Any] = {"alg": "ES256", "kid": kid, "jku": jwks_url, "typ": "JOSE"}
    header |= {"iat": now, "exp": now + lifetime_seconds}
    signer = create_agent_card_signer(private_key, cast(ProtectedHeader, header))  # more keys
    return signer(card)


def check_card_signature(card: AgentCard, hub_jwks: dict[str, Any]) -> bool:
    """Whether ``card`` is signed (False: it carries no signature); raises
    ``CardSignatureError`` when it is, but no key of the hub's JWKS verifies a signature, or
    the hub's signature has expired (its ``exp``). A signature's ``jku`` is never fetched:
    only the hub's own keys count."""
    if not card.signatures:
        return False
    keys = {k.get("kid"): k for k in hub_jwks.get("keys", []) if isinstance(k, dict)}

    def key_of(kid: str | None, jku: str | None) -> PyJWK:
        if kid not in keys:  # the next signature, if any, may be the hub's
            raise PyJWKError(f"no key of the hub is named {kid!r}")
        return PyJWK(keys[kid], algorithm="ES256")

    verify = create_signature_verifier(key_of, ["ES256"])
    try:
        verify(card)
    except SignatureVerificationError as exc:
        raise CardSignatureError(f"The agent card's signature does not verify: {exc}") from exc
    now = time.time()
    for signature in card.signatures:
        header = _protected_header(signature.protected)
        exp = header.get("exp")
        if header.get("kid") in keys and type(exp) is int and exp < now - CLOCK_SKEW_SECONDS:
            raise CardSignatureError(
                "The agent card's signature has expired; fetch the card again."
            )
    return True


def _protected_header(protected: str) -> dict[str, Any]:
    try:
        header = json.loads(base64.urlsafe_b64decode(protected + "=" * (-len(protected) % 4)))
    except (ValueError, UnicodeDecodeError):
        return {}
    return header if isinstance(header, dict) else {}
