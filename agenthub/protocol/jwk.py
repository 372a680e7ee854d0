"""Public EC P-256 keys as JWKs (RFC 7517) and their thumbprints (RFC 7638)."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any, Literal

from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import BaseModel, ConfigDict, Field, field_validator

P256_COORDINATE_BYTES = 32


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PublicJwk(BaseModel):
    """An ES256 public key. A private member (``d``) is refused: it must never leave the agent."""

    model_config = ConfigDict(extra="allow")

    kty: Literal["EC"]
    crv: Literal["P-256"]
    x: str = Field(min_length=43, max_length=43)
    y: str = Field(min_length=43, max_length=43)
    alg: Literal["ES256"] | None = None
    use: Literal["sig"] | None = None
    kid: str | None = Field(default=None, max_length=200)

    @field_validator("x", "y")
    @classmethod
    def _coordinate(cls, value: str) -> str:
        try:
            raw = b64url_decode(value)
        except ValueError as exc:
            raise ValueError("not base64url") from exc
        if len(raw) != P256_COORDINATE_BYTES or b64url(raw) != value:
            raise ValueError("a P-256 coordinate is 32 bytes, base64url without padding")
        return value

    def model_post_init(self, context: Any, /) -> None:
        if self.model_extra and "d" in self.model_extra:
            raise ValueError("publicJwk holds a private key ('d'); send only the public part")

    def public_dict(self) -> dict[str, str]:
        return {"kty": self.kty, "crv": self.crv, "x": self.x, "y": self.y}


def ec_public_jwk(public_key: ec.EllipticCurvePublicKey) -> dict[str, str]:
    """The JWK of a P-256 public key (the members its thumbprint covers)."""
    numbers = public_key.public_numbers()
    return {
        "kty": "EC",
        "crv": "P-256",
        "x": b64url(numbers.x.to_bytes(P256_COORDINATE_BYTES, "big")),
        "y": b64url(numbers.y.to_bytes(P256_COORDINATE_BYTES, "big")),
    }


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638 SHA-256 thumbprint of an EC public JWK."""
    members = {k: jwk[k] for k in ("crv", "kty", "x", "y")}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True).encode()
    return b64url(hashlib.sha256(canonical).digest())
