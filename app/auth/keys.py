"""The hub's signing key: made on first start (mode 0600) or loaded, and its JWKS."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from jose import jwk
from jose.backends.base import Key

from agenthub.protocol.jwk import ec_public_jwk, jwk_thumbprint
from app.auth.ca import write_once

KEY_FILE_MODE = 0o600


def public_jwk_of(private_key: ec.EllipticCurvePrivateKey) -> dict[str, str]:
    return ec_public_jwk(private_key.public_key())


@dataclass(frozen=True)
class HubKeys:
    kid: str
    public_jwk: dict[str, str]
    signing_key: Key
    verifying_key: Key
    private_key: ec.EllipticCurvePrivateKey  # the same key, for a2a-sdk's card signer
    created: bool = False  # made by this call, not loaded

    def jwks(self) -> dict[str, Any]:
        return {"keys": [{**self.public_jwk, "kid": self.kid, "alg": "ES256", "use": "sig"}]}


def _write_new_key(path: Path) -> bytes:
    """A new key at ``path``; ``FileExistsError`` when another replica made one just now."""
    private_key = ec.generate_private_key(ec.SECP256R1())
    pem = private_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    if not write_once(path, pem, KEY_FILE_MODE):
        raise FileExistsError(path)
    return pem


def load_or_create_hub_keys(path: Path) -> HubKeys:
    try:
        return read_hub_keys(path)
    except FileNotFoundError:
        try:
            pem = _write_new_key(path)
        except FileExistsError:  # another replica made it just now
            return read_hub_keys(path)
    return _hub_keys(pem, path, created=True)


def read_hub_keys(path: Path) -> HubKeys:
    return _hub_keys(path.read_bytes(), path, created=False)


def _hub_keys(pem: bytes, path: Path, *, created: bool) -> HubKeys:
    try:
        private_key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path} is not an unencrypted PEM private key") from exc
    if not isinstance(private_key, ec.EllipticCurvePrivateKey) or not isinstance(
        private_key.curve, ec.SECP256R1
    ):
        raise ValueError(f"{path} does not hold an EC P-256 private key")
    public = public_jwk_of(private_key)
    return HubKeys(
        kid=jwk_thumbprint(public),
        public_jwk=public,
        signing_key=jwk.construct(pem.decode(), "ES256"),
        verifying_key=jwk.construct(public, "ES256"),
        private_key=private_key,
        created=created,
    )
