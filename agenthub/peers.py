"""The peer's certificate, as an agent authenticates it (ACPs AIA): ``authenticate_peer``
says which agent a verified certificate is: its ``acps://{AIC}`` name, not on the CA's
revocation list (``RevocationList``, fetched from the hub), and for the key the registry holds
for that agent."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec

from agenthub.errors import KitError
from agenthub.protocol.aic import URI_SCHEME
from agenthub.protocol.jwk import ec_public_jwk, jwk_thumbprint

logger = logging.getLogger(__name__)

PARSED_CERTIFICATES = 1024
"""Certificates kept parsed, by their bytes: a peer shows the same one on every call, and
parsing it (and hashing its key) cost 0.3-0.4 ms a call on each side (py-spy, bench.p2p)."""
_PARSED: dict[bytes, PeerCertificate] = {}

REVOCATION_RETRY_SECONDS = 10.0
"""After a failed fetch of the revocation list, the next try waits this long."""


REVOCATION_GRACE_SECONDS = 600.0
"""How long past its ``nextUpdate`` a revocation list still counts while the hub is away."""


class PeerCertificateError(KitError):
    """A peer's certificate does not prove the agent it should (or any agent)."""


@dataclass(frozen=True)
class PeerCertificate:
    aic: str | None
    serial: int
    key_thumbprint: str | None
    not_after: datetime
    issuer: x509.Name

    @classmethod
    def load(cls, certificate: x509.Certificate) -> PeerCertificate:
        key = certificate.public_key()
        thumbprint = (
            jwk_thumbprint(ec_public_jwk(key))
            if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1)
            else None
        )
        return cls(
            aic_of(certificate),
            certificate.serial_number,
            thumbprint,
            _expiry(certificate),
            certificate.issuer,
        )

    @classmethod
    def from_der(cls, der: bytes) -> PeerCertificate:
        return _parsed(der, lambda: cls.load(x509.load_der_x509_certificate(der)))

    @classmethod
    def from_pem(cls, pem: str | bytes) -> PeerCertificate:
        data = pem if isinstance(pem, bytes) else pem.encode()
        return _parsed(data, lambda: cls.load(x509.load_pem_x509_certificate(data)))


def _parsed(data: bytes, parse: Callable[[], PeerCertificate]) -> PeerCertificate:
    found = _PARSED.get(data)
    if found is None:
        found = parse()
        if len(_PARSED) >= PARSED_CERTIFICATES:
            del _PARSED[next(iter(_PARSED))]  # the oldest parsed
        _PARSED[data] = found
    return found


def _expiry(certificate: x509.Certificate) -> datetime:
    return certificate.not_valid_after_utc


def aic_of(certificate: x509.Certificate) -> str | None:
    """The agent a certificate names: its SAN URI ``acps://{AIC}`` (the CA vouches for it)."""
    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return None
    for uri in names.value.get_values_for_type(x509.UniformResourceIdentifier):
        if uri.startswith(URI_SCHEME) and len(uri) > len(URI_SCHEME):
            return uri[len(URI_SCHEME) :]
    return None


class RevocationList:
    """The CA's revocation list, fetched again at its ``nextUpdate``; its signature is
    checked against the pinned CA before a serial on it counts, and a list older than the
    one held is refused.

    It fails closed: until a list was fetched, and once the one held is more than
    ``REVOCATION_GRACE_SECONDS`` past its ``nextUpdate`` (the hub away that long), every
    certificate is refused. Fetches are at most one per ``REVOCATION_RETRY_SECONDS`` while
    they fail."""

    def __init__(self, fetch: Callable[[], Awaitable[bytes]], ca: Callable[[], x509.Certificate]):
        self._fetch = fetch
        self._ca = ca
        self._serials: frozenset[int] = frozenset()
        self._issued: datetime | None = None
        self._fresh_until = 0.0  # time.monotonic()
        self._next_try = 0.0
        self._lock = asyncio.Lock()

    async def refresh(self) -> None:
        async with self._lock:
            await self._refresh()

    async def _refresh(self) -> None:
        crl = x509.load_pem_x509_crl(await self._fetch())
        ca = self._ca()
        public = ca.public_key()
        if crl.issuer != ca.subject or not (
            isinstance(public, ec.EllipticCurvePublicKey) and crl.is_signature_valid(public)
        ):
            raise PeerCertificateError("the revocation list is not signed by the pinned CA")
        issued = crl.last_update_utc
        if self._issued is not None and issued < self._issued:
            raise PeerCertificateError("the revocation list is older than the one held")
        next_update = crl.next_update_utc
        if next_update is None:
            raise PeerCertificateError("the revocation list says no nextUpdate")
        self._serials = frozenset(entry.serial_number for entry in crl)
        self._issued = issued
        # a list past its nextUpdate counts only within the grace (see is_revoked)
        now = time.monotonic()
        self._fresh_until = now + (next_update - datetime.now(UTC)).total_seconds()
        self._next_try = now + REVOCATION_RETRY_SECONDS

    async def is_revoked(self, serial: int, issuer: x509.Name | None = None) -> bool:
        """Whether the hub's CA revoked ``serial``; a certificate of another CA the hub
        trusts (``issuer``) is not this list's to say."""
        if issuer is not None and issuer != self._ca().subject:
            return False
        now = time.monotonic()
        if now >= self._fresh_until and now >= self._next_try:
            async with self._lock:
                now = time.monotonic()
                if now >= self._fresh_until and now >= self._next_try:  # not done meanwhile
                    try:
                        await self._refresh()
                    except Exception as exc:
                        logger.warning("could not fetch the revocation list: %s", exc)
                        self._next_try = time.monotonic() + REVOCATION_RETRY_SECONDS
        if self._issued is None or time.monotonic() > self._fresh_until + REVOCATION_GRACE_SECONDS:
            raise PeerCertificateError("the CA's revocation list could not be fetched")
        return serial in self._serials


CardKey = Callable[[str, bool], Awaitable[dict[str, Any]]]
"""The registered public JWK of an agent (``refresh=True`` asks the hub again)."""


async def authenticate_peer(
    peer: PeerCertificate,
    *,
    revocations: RevocationList,
    card_key: CardKey,
    expected: str | None = None,
) -> str:
    """The agent a verified certificate proves, or ``PeerCertificateError``."""
    if peer.aic is None:
        raise PeerCertificateError("the certificate names no agent (no acps:// AIC)")
    if expected is not None and peer.aic != expected:
        raise PeerCertificateError(f"the certificate is {peer.aic}'s, not {expected}'s")
    if await revocations.is_revoked(peer.serial, peer.issuer):
        raise PeerCertificateError(f"the certificate of {peer.aic} is revoked")
    for refresh in (False, True):  # a mismatch may mean the cached card is old: ask again
        try:
            registered = jwk_thumbprint(await card_key(peer.aic, refresh))
        except Exception as exc:
            raise PeerCertificateError(f"{peer.aic} is not a registered agent: {exc}") from exc
        if registered == peer.key_thumbprint:
            return peer.aic
    raise PeerCertificateError(
        f"the certificate of {peer.aic} is for a key the registry no longer holds"
    )


def client_certificate(scope: Any) -> PeerCertificate | None:
    """The verified client certificate of a request, from the ASGI TLS extension."""
    tls = (scope.get("extensions") or {}).get("tls") or {}
    chain = tls.get("client_cert_chain") or []
    return PeerCertificate.from_pem(chain[0]) if chain else None


def peer_certificate(response: Any) -> PeerCertificate | None:
    """The verified certificate of the server that gave an httpx response (None when plain)."""
    stream = response.extensions.get("network_stream")
    ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    return PeerCertificate.from_der(der) if der else None
