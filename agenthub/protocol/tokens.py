"""The claims of every token in API.md "Authentication" (pure data; signing lives elsewhere)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MAX_ASSERTION_LIFETIME_SECONDS = 300
MAX_CALL_TOKEN_LIFETIME_SECONDS = 300
CLOCK_SKEW_SECONDS = 30


class _Claims(BaseModel):
    # strict: a time is a JSON integer, never a numeric string, a fraction or a boolean
    model_config = ConfigDict(extra="allow", strict=True)

    iss: str = Field(min_length=1, max_length=200)
    iat: int
    nonce: str = Field(min_length=1, max_length=200)


class AssertionClaims(_Claims):
    """Agent → hub: proves the agent holds its registered key."""

    sub: str = Field(min_length=1, max_length=200)
    aud: str
    exp: int
    jti: str = Field(min_length=1, max_length=200)


class AccessTokenClaims(_Claims):
    """Hub → agent: signed by the hub, echoes the assertion's nonce.

    ``cnf.jkt`` (RFC 7800) binds the token to the agent's key at issue time, so a key
    rotation voids it at once.
    """

    sub: str
    aud: str
    exp: int
    jti: str
    cnf: dict[str, str] = Field(default_factory=dict)


class CallTokenClaims(_Claims):
    """Caller → callee on a point-to-point call, bound to method, URL and body."""

    sub: str
    aud: str
    exp: int
    jti: str = Field(min_length=1, max_length=200)
    htm: str
    htu: str
    body_sha256: str = Field(alias="bodySha256")


class ResponseSignatureClaims(_Claims):
    """Callee → caller, in ``X-Agent-Signature``: the answer's body digest and the call's nonce."""

    aud: str
    body_sha256: str = Field(alias="bodySha256")
