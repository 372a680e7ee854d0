"""Compact JWS (ES256) signing and verification; the hub's only use of jose."""

from __future__ import annotations

import functools
import json
from typing import Any

from jose import jwk, jws
from jose.backends.base import Key
from jose.exceptions import JOSEError

from app.auth.errors import BadTokenSignature, MalformedToken

ALGORITHM = "ES256"
MAX_TOKEN_CHARS = 8192


def sign(claims: dict[str, Any], key: Key, *, kid: str, typ: str = "JWT") -> str:
    token: str = jws.sign(claims, key, headers={"kid": kid, "typ": typ}, algorithm=ALGORITHM)
    return token


def is_compact(token: str) -> bool:
    """Whether ``token`` has a compact JWS's form (a readable header), whatever it signs: a
    token that has not cannot be an access token (it is a mistyped secret, most likely)."""
    if len(token) > MAX_TOKEN_CHARS:
        return False
    try:
        jws.get_unverified_header(token)
    except (JOSEError, ValueError, TypeError, UnicodeDecodeError):
        return False
    return True


def unverified_header(token: str, *, kid_required: bool = True) -> dict[str, Any]:
    if len(token) > MAX_TOKEN_CHARS:
        raise MalformedToken("The token is too long.")
    try:
        header: dict[str, Any] = jws.get_unverified_header(token)
    except (JOSEError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise MalformedToken("The token is not a compact JWS.") from exc
    if header.get("alg") != ALGORITHM:
        raise MalformedToken("The token must be signed with ES256.")
    kid = header.get("kid")
    if kid_required and (not isinstance(kid, str) or not kid):
        raise MalformedToken("The token's header has no kid.")
    return header


def unverified_claims(token: str) -> dict[str, Any]:
    """The claims of a compact JWS, before its signature is checked: only to learn which key
    should check it."""
    try:
        claims = json.loads(jws.get_unverified_claims(token))
    except (JOSEError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise MalformedToken("The token is not a compact JWS.") from exc
    if not isinstance(claims, dict):
        raise MalformedToken("The token's payload is not a JSON object.")
    return claims


def verify(token: str, key: Key) -> dict[str, Any]:
    """The token's claims if its signature verifies with ``key``; else 401."""
    try:
        payload = jws.verify(token, key, algorithms=[ALGORITHM])
        claims = json.loads(payload)
    except (JOSEError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise BadTokenSignature("The token's signature does not verify.") from exc
    if not isinstance(claims, dict):
        raise MalformedToken("The token's payload is not a JSON object.")
    return claims


@functools.lru_cache(maxsize=4096)
def _key_for(thumbprint: str, x: str, y: str) -> Key:
    return jwk.construct({"kty": "EC", "crv": "P-256", "x": x, "y": y}, ALGORITHM)


def public_key(jwk_dict: dict[str, Any], thumbprint: str) -> Key:
    """A verifying key for an agent's public JWK, built once per key (cached by thumbprint)."""
    return _key_for(thumbprint, str(jwk_dict["x"]), str(jwk_dict["y"]))


def check_public_jwk(jwk_dict: dict[str, Any]) -> bool:
    """Whether the JWK is a usable P-256 public key (its point lies on the curve)."""
    try:
        jwk.construct(jwk_dict, ALGORITHM)
    except (JOSEError, ValueError, TypeError):
        return False
    return True
