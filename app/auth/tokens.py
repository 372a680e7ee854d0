"""Issuing and checking the hub's access tokens and agents' assertions (claims only, no SQL)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from pydantic import ValidationError

from agenthub.protocol.tokens import (
    CLOCK_SKEW_SECONDS,
    MAX_ASSERTION_LIFETIME_SECONDS,
    AccessTokenClaims,
    AssertionClaims,
)
from app.auth.errors import (
    AssertionExpired,
    ForeignToken,
    InvalidAssertion,
    MalformedToken,
    TokenExpired,
)
from app.auth.jws import sign
from app.auth.keys import HubKeys


def issue_access_token(
    keys: HubKeys,
    *,
    issuer: str,
    agent_id: str,
    key_thumbprint: str,
    nonce: str,
    lifetime_seconds: int,
) -> str:
    now = int(time.time())
    claims = AccessTokenClaims(
        iss=issuer,
        aud=issuer,
        sub=agent_id,
        iat=now,
        exp=now + lifetime_seconds,
        jti=secrets.token_urlsafe(16),
        nonce=nonce,
        cnf={"jkt": key_thumbprint},
    )
    return sign(claims.model_dump(), keys.signing_key, kid=keys.kid)


def check_assertion_claims(raw: dict[str, Any], *, kid: str, issuer: str) -> AssertionClaims:
    """Everything about an assertion but its signature and single use (checked by the caller)."""
    try:
        claims = AssertionClaims.model_validate(raw)
    except ValidationError as exc:
        missing = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
        raise InvalidAssertion(
            f"The assertion's claims are missing or malformed: {missing}."
        ) from exc
    if claims.iss != kid or claims.sub != kid:
        raise InvalidAssertion(
            "The assertion's iss and sub must equal the header's kid (agent id)."
        )
    if claims.aud != issuer:
        raise InvalidAssertion(f"The assertion's aud must be the hub's issuer {issuer!r}.")
    now = int(time.time())
    if claims.exp <= now:
        raise AssertionExpired("The assertion has expired.")
    if claims.iat > now + CLOCK_SKEW_SECONDS:
        raise InvalidAssertion("The assertion was issued in the future.")
    if claims.exp - claims.iat > MAX_ASSERTION_LIFETIME_SECONDS:
        raise InvalidAssertion(
            f"The assertion lives longer than {MAX_ASSERTION_LIFETIME_SECONDS} s (exp - iat)."
        )
    return claims


def check_access_token_claims(raw: dict[str, Any], *, issuer: str) -> AccessTokenClaims:
    try:
        claims = AccessTokenClaims.model_validate(raw)
    except ValidationError as exc:
        raise MalformedToken("The access token's claims are malformed.") from exc
    if claims.iss != issuer or claims.aud != issuer:
        raise ForeignToken("The access token was not issued by this hub for this hub.")
    if claims.exp <= int(time.time()):
        raise TokenExpired("The access token has expired.")
    return claims
