"""Mutual TLS between agents (ACPs AIA) with certificates from the hub's CA.

- ``AgentTls`` holds the agent's certificate (asked of the hub with a CSR of the agent's key,
  renewed by itself after two thirds of its life, and after a key rotation) and the two TLS
  contexts made of it: the server's (a client certificate is required) and the client's. Both
  trust the hub's CA alone, pinned on first use.
- ``TlsHttpProtocol`` is uvicorn's httptools protocol filling the ASGI TLS extension
  (``scope["extensions"]["tls"]``) from the connection, so the endpoint sees the certificate
  the client proved it holds.
- ``authenticate_peer`` says which agent a verified certificate is: its ``acps://{AIC}`` name,
  not on the CA's revocation list, and for the key the registry holds for that agent.
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from agenthub.errors import HubRequestError, KitError
from agenthub.protocol.aic import URI_SCHEME
from agenthub.protocol.jwk import ec_public_jwk, jwk_thumbprint

logger = logging.getLogger(__name__)

RENEW_AFTER = 2 / 3
"""A certificate is renewed once this much of its lifetime has passed."""
REVOCATION_RETRY_SECONDS = 10.0
"""After a failed fetch of the revocation list, the next try waits this long."""
REVOCATION_GRACE_SECONDS = 600.0
"""How long past its ``nextUpdate`` a revocation list still counts while the hub is away."""
TLS_VERSIONS = {"TLSv1.3": 0x0304, "TLSv1.2": 0x0303}


class PeerCertificateError(KitError):
    """A peer's certificate does not prove the agent it should (or any agent)."""


# -- a certificate's agent ----------------------------------------------------------------


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


PARSED_CERTIFICATES = 1024
"""Certificates kept parsed, by their bytes: a peer shows the same one on every call, and
parsing it (and hashing its key) cost 0.3-0.4 ms a call on each side (py-spy, bench.p2p)."""
_PARSED: dict[bytes, PeerCertificate] = {}


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


# -- the agent's own certificate ---------------------------------------------------------


class AgentTls:
    """The agent's certificate from ``hub`` and the TLS contexts made of it.

    ``ensure()`` pins the hub's CA on first use and asks for a certificate when there is none
    yet, when two thirds of its life have passed, or when the agent's key changed. The
    contexts are made once and keep working across renewals (new connections get the new
    certificate).
    """

    def __init__(self, hub: Any, *, ca_pem: bytes | None = None) -> None:
        self.hub = hub  # agenthub.hub.HubClient (not imported: it imports nothing of TLS)
        self.server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.server.verify_mode = ssl.CERT_REQUIRED
        self.client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # hostname checked, chain too
        self.contexts = (self.server, self.client)
        for context in self.contexts:
            context.minimum_version = ssl.TLSVersion.TLSv1_2
        self.ca: x509.Certificate | None = None
        self.ca_pem: bytes | None = None
        self.certificate: x509.Certificate | None = None
        self.certificate_pem: bytes | None = None
        self._certified_key: str | None = None
        self._lock = asyncio.Lock()
        self._on_renewal: list[Callable[[], None]] = []
        self.revocations = RevocationList(hub.revocation_list, self._pinned_ca)
        if ca_pem is not None:
            self._pin(ca_pem)

    def _pinned_ca(self) -> x509.Certificate:
        if self.ca is None:
            raise PeerCertificateError("the hub's CA is not pinned yet")
        return self.ca

    def _pin(self, pem: bytes) -> None:
        """The hub's CA (first) and any other CAs it trusts (after it)."""
        self.ca = x509.load_pem_x509_certificates(pem)[0]
        self.ca_pem = pem
        for context in self.contexts:
            context.load_verify_locations(cadata=pem.decode())

    @property
    def fresh(self) -> bool:
        if self.certificate is None or self._certified_key != self.hub.key.thumbprint:
            return False
        return time.time() < self._renew_at(self.certificate)

    @staticmethod
    def _renew_at(certificate: x509.Certificate) -> float:
        start = certificate.not_valid_before_utc.timestamp()
        end = certificate.not_valid_after_utc.timestamp()
        return start + RENEW_AFTER * (end - start)

    @property
    def usable(self) -> bool:
        """The certificate held is unexpired and for the agent's current key."""
        certificate = self.certificate
        return (
            certificate is not None
            and self._certified_key == self.hub.key.thumbprint
            and time.time() < certificate.not_valid_after_utc.timestamp()
        )

    async def ensure(self) -> None:
        """A certificate to present: renewed when due; while the hub cannot renew it, the
        one held serves until it expires."""
        if self.fresh:
            return
        async with self._lock:
            if self.fresh:
                return
            try:
                await self._renew()
            except Exception as exc:
                if not self.usable:
                    raise
                logger.warning("could not renew the agent's certificate (kept for now): %s", exc)

    async def _renew(self) -> None:
        if self.ca is None:
            self._pin(await self.hub.ca_certificate())
        key = self.hub.key
        csr = key.certificate_request(self.hub.agent_id)
        try:
            issued = await self.hub.request_certificate(csr)
        except HubRequestError as exc:
            if exc.code != "too-many-certificates":
                raise
            await self._make_room()
            issued = await self.hub.request_certificate(csr)
        pem = (issued.certificate or "").encode()
        certificate = x509.load_pem_x509_certificate(pem)
        self._load_chain(pem, key.private_pem())
        renewed = self.certificate is not None
        self.certificate, self.certificate_pem = certificate, pem
        self._certified_key = key.thumbprint
        logger.info(
            "certificate %x of %s, good until %s",
            certificate.serial_number,
            self.hub.agent_id,
            certificate.not_valid_after_utc.isoformat(),
        )
        if renewed:  # connections made with the old one still show it: let them go
            for callback in self._on_renewal:
                callback()

    async def _make_room(self) -> None:
        """The hub holds as many live certificates of this agent as it allows (those of its
        earlier runs: each run asks for its own): revoke the oldest one this process does
        not present, so that a restart never locks an agent out of TLS."""
        held = self.certificate.serial_number if self.certificate is not None else None
        live = [c for c in await self.hub.certificates() if c.revoked_at is None]
        spare = [c for c in live if int(c.serial, 16) != held]
        if spare:
            oldest = min(spare, key=lambda c: c.not_before)
            logger.info("revoking certificate %s of an earlier run, to make room", oldest.serial)
            await self.hub.revoke_certificate(oldest.serial)

    def on_renewal(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` after each renewal (not the first certificate)."""
        self._on_renewal.append(callback)

    def _load_chain(self, certificate_pem: bytes, key_pem: bytes) -> None:
        """``load_cert_chain`` reads files only: a private folder, gone once read."""
        with tempfile.TemporaryDirectory(prefix="agenthub-tls-") as folder:
            cert_file, key_file = Path(folder, "cert.pem"), Path(folder, "key.pem")
            cert_file.write_bytes(certificate_pem)
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(key_pem)
            for context in self.contexts:
                context.load_cert_chain(cert_file, key_file)

    def seconds_to_renewal(self) -> float:
        if self.certificate is None or not self.fresh:
            return 0.0
        return max(0.0, self._renew_at(self.certificate) - time.time())

    async def keep_fresh(self, *, retry_seconds: float = 30.0, check_seconds: float = 60.0) -> None:
        """Renew the certificate for as long as it runs (the task is cancelled to stop); a
        key rotation is noticed within ``check_seconds``."""
        while True:
            try:
                await self.ensure()
            except Exception as exc:  # the hub is away: the certificate held stays valid
                logger.warning("could not renew the agent's certificate: %s", exc)
                await asyncio.sleep(retry_seconds)
            else:
                if not self.fresh:  # renewal failed, the one held serves: try again later
                    await asyncio.sleep(retry_seconds)
                    continue
                await asyncio.sleep(min(max(self.seconds_to_renewal(), 1.0), check_seconds))

    def write_files(self, folder: str | os.PathLike[str]) -> tuple[Path, Path, Path]:
        """``{AIC}.crt``, ``{AIC}.key`` (mode 0600) and ``ca.crt`` in ``folder``: the layout
        acps-sdk's ``MTLSConfig(folder, aic)`` reads. Call ``ensure()`` first."""
        if self.certificate_pem is None or self.ca_pem is None:
            raise KitError("no certificate yet: call ensure() first")
        target = Path(folder)
        target.mkdir(parents=True, exist_ok=True)
        aic = self.hub.agent_id
        cert, key, ca = target / f"{aic}.crt", target / f"{aic}.key", target / "ca.crt"
        cert.write_bytes(self.certificate_pem)
        ca.write_bytes(self.ca_pem)
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # an older file keeps its mode through O_TRUNC
        with os.fdopen(fd, "wb") as fh:
            fh.write(self.hub.key.private_pem())
        return cert, key, ca


# -- the server side: the ASGI TLS extension ------------------------------------------------


def tls_extension(transport: Any) -> dict[str, Any] | None:
    """The ASGI TLS extension's scope entry for a connection, or None when it is plain."""
    ssl_object = transport.get_extra_info("ssl_object")
    if ssl_object is None:
        return None
    der = ssl_object.getpeercert(binary_form=True)
    cipher = ssl_object.cipher()
    return {
        "server_cert": None,
        # the leaf alone: Python before 3.13 does not give the verified chain
        "client_cert_chain": [ssl.DER_cert_to_PEM_cert(der)] if der else [],
        "client_cert_name": (
            x509.load_der_x509_certificate(der).subject.rfc4514_string() if der else None
        ),
        "client_cert_error": None,  # a certificate that fails verification fails the handshake
        "tls_version": TLS_VERSIONS.get(ssl_object.version() or ""),
        "cipher_suite": _cipher_id(ssl_object.context, cipher[0]) if cipher else None,
    }


def _cipher_id(context: ssl.SSLContext, name: str) -> int | None:
    for cipher in context.get_ciphers():
        if cipher["name"] == name:
            return int(cipher["id"]) & 0xFFFF
    return None


class TlsHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with ``scope["extensions"]["tls"]`` filled in."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._tls = tls_extension(transport)

    def shutdown(self) -> None:
        """At the server's exit an idle connection goes at once: closing TLS politely waits
        for the client's close_notify, which an idle keep-alive client sends only when it
        next reads (uvicorn would wait out its graceful timeout)."""
        if self._tls is not None and (self.cycle is None or self.cycle.response_complete):
            self.transport.abort()
        else:
            super().shutdown()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._tls is not None:
            scope = cast(dict[str, Any], self.scope)
            scope.setdefault("extensions", {})["tls"] = self._tls


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
