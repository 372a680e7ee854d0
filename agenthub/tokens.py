"""Verifying compact JWS tokens against known public keys, for the kit."""

from __future__ import annotations

import functools
import json
from typing import Any

from jose import jwk, jws
from jose.backends.base import Key
from jose.exceptions import JOSEError

from agenthub.errors import SignatureError as SignatureError  # re-exported: its old home
from agenthub.errors import SignatureMismatch

ALGORITHM = "ES256"


@functools.lru_cache(maxsize=1024)
def _key(x: str, y: str) -> Key:
    return jwk.construct({"kty": "EC", "crv": "P-256", "x": x, "y": y}, ALGORITHM)


def public_key(jwk_dict: dict[str, Any]) -> Key:
    """A verifying key for a P-256 JWK, built once per key."""
    return _key(str(jwk_dict["x"]), str(jwk_dict["y"]))


def header_of(token: str) -> dict[str, Any]:
    try:
        header: dict[str, Any] = jws.get_unverified_header(token)
    except (JOSEError, ValueError, TypeError) as exc:
        raise SignatureError("not a compact JWS") from exc
    if header.get("alg") != ALGORITHM:
        raise SignatureError("not signed with ES256")
    return header


def key_of(jwks: dict[str, Any], token: str) -> dict[str, Any] | None:
    """The key of the JWK Set ``jwks`` that ``token``'s header names (its ``kid``), if any;
    ``SignatureError`` for a token that is no ES256 JWS."""
    kid = header_of(token).get("kid")
    return next((k for k in jwks.get("keys", []) if k.get("kid") == kid), None)


def verify(token: str, jwk_dict: dict[str, Any]) -> dict[str, Any]:
    """The claims of ``token`` if it is signed by ``jwk_dict``'s private half."""
    header_of(token)
    try:
        claims = json.loads(jws.verify(token, public_key(jwk_dict), algorithms=[ALGORITHM]))
    except (JOSEError, ValueError, TypeError, KeyError) as exc:
        raise SignatureMismatch("the signature does not verify") from exc
    if not isinstance(claims, dict):
        raise SignatureError("the payload is not a JSON object")
    return claims
