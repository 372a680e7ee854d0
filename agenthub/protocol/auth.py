"""Bodies of the token endpoint."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agenthub.protocol.base import WireModel

JWKS_PATH = "/.well-known/jwks.json"
"""Where the hub publishes the keys that sign its tokens (and its cards)."""


class TokenRequest(WireModel):
    assertion: str = Field(min_length=1, max_length=8192)


class TokenResponse(WireModel):
    access_token: str
    token_type: Literal["bearer"] = "bearer"  # noqa: S105
    expires_in: int


class HubMetadata(WireModel):
    issuer: str
    token_endpoint: str
    jwks_uri: str
    api_version: str
    ca_uri: str | None = None
    crl_uri: str | None = None
