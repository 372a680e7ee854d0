"""The hub as the agents' OAuth 2.0 authorization server: its metadata (RFC 8414), the
token endpoint's answer (RFC 6749 5.1), the access token's claims (RFC 9068) and the
operator's clients. The OAuth bodies keep OAuth's snake_case; the hub's own are camelCase."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agenthub.protocol.base import WireModel

CALL_SCOPE = "call"
"""The one scope the hub grants: call the agent the token is for (its ``aud``)."""
ACCESS_TOKEN_TYPE = "at+jwt"  # noqa: S105 (a media type, RFC 9068 2.1)
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
TOKEN_PATH = "/v1/oauth/token"  # noqa: S105 (a path)
METADATA_PATH = "/.well-known/oauth-authorization-server"
ClientKind = Literal["agent", "application"]


class AuthorizationServerMetadata(BaseModel):
    """RFC 8414 2: what an OAuth client reads to get a token from the hub."""

    issuer: str
    token_endpoint: str
    jwks_uri: str
    grant_types_supported: list[str]
    token_endpoint_auth_methods_supported: list[str]
    token_endpoint_auth_signing_alg_values_supported: list[str]
    scopes_supported: list[str]
    response_types_supported: list[str]


class OAuthToken(BaseModel):
    """RFC 6749 5.1: the token endpoint's answer."""

    access_token: str
    token_type: Literal["Bearer"] = "Bearer"  # noqa: S105
    expires_in: int
    scope: str


class AgentAccessClaims(BaseModel):
    """RFC 9068 2.2: the hub's access token for calling one agent (``aud``).

    ``client_kind`` says who ``sub`` is: a registered agent (its key at issue time in
    ``cnf.jkt``, RFC 7800: a rotation voids the token) or an application the operator
    registered."""

    model_config = ConfigDict(extra="allow", strict=True)

    iss: str = Field(min_length=1, max_length=2000)
    sub: str = Field(min_length=1, max_length=200)
    client_id: str = Field(min_length=1, max_length=200)
    aud: str = Field(min_length=1, max_length=2000)  # an agent's id, or a group's A2A URL
    iat: int
    exp: int
    jti: str = Field(min_length=1, max_length=200)
    scope: str
    client_kind: ClientKind
    cnf: dict[str, str] = Field(default_factory=dict)


class OAuthClientCreate(WireModel):
    name: str = Field(min_length=1, max_length=200, description="For the operator's eyes.")


class OAuthClientView(WireModel):
    client_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None


class OAuthClientIssued(OAuthClientView):
    client_secret: str = Field(description="Shown this once: the hub keeps only its hash.")


class OAuthClientList(WireModel):
    items: list[OAuthClientView]


class ClientStanding(WireModel):
    """Whether a token's client may still call: an agent still registered, an application
    not revoked (a kit partner asks before it takes the client's token)."""

    client_id: str
    kind: ClientKind
    active: bool
