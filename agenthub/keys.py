"""The agent's own ES256 key: made once, kept in a file only its owner can read (0600)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from jose import jwk, jws
from jose.backends.base import Key

from agenthub.protocol.jwk import ec_public_jwk, jwk_thumbprint

KEY_FILE_MODE = 0o600
ALGORITHM = "ES256"


class AgentKey:
    """A private signing key with its public JWK; the private half never leaves the agent."""

    def __init__(self, private_key: ec.EllipticCurvePrivateKey) -> None:
        if not isinstance(private_key.curve, ec.SECP256R1):
            raise ValueError("agent keys are EC P-256 (ES256)")
        self._private = private_key
        self.public_jwk: dict[str, str] = ec_public_jwk(private_key.public_key())
        self.thumbprint = jwk_thumbprint(self.public_jwk)
        self._signing_key: Key = jwk.construct(self.private_pem().decode(), ALGORITHM)

    @classmethod
    def generate(cls) -> AgentKey:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: bytes) -> AgentKey:
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("not an EC private key")
        return cls(key)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> AgentKey:
        return cls.from_pem(Path(path).read_bytes())

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> AgentKey:
        try:
            return cls.load(path)
        except FileNotFoundError:
            key = cls.generate()
            key.save(path)
            return key

    def private_pem(self) -> bytes:
        return self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def certificate_request(self, common_name: str) -> str:
        """A PEM PKCS#10 request for this key (what the hub's CA certifies)."""
        csr = (
            x509.CertificateSigningRequestBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
            .sign(self._private, hashes.SHA256())
        )
        return csr.public_bytes(serialization.Encoding.PEM).decode()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the key with mode 0600, never overwriting an existing file."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEY_FILE_MODE)
        with os.fdopen(fd, "wb") as fh:
            fh.write(self.private_pem())

    def sign(self, claims: dict[str, Any], *, kid: str, typ: str = "JWT") -> str:
        token: str = jws.sign(
            claims, self._signing_key, headers={"kid": kid, "typ": typ}, algorithm=ALGORITHM
        )
        return token
