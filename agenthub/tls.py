"""Mutual TLS between agents (ACPs AIA) with certificates from the hub's CA: ``AgentTls``
holds the agent's own certificate (asked of the hub with a CSR of the agent's key, renewed
by itself after two thirds of its life, and after a key rotation) and the two TLS contexts
made of it: the server's (a client certificate is required) and the client's. Both trust the
hub's CA alone, pinned on first use.

The peer's side is ``agenthub.peers`` (which agent a verified certificate is), and the
server's, ``agenthub.tls_server`` (uvicorn's protocol filling the ASGI TLS extension).
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from cryptography import x509

from agenthub.errors import HubRequestError, KitError
from agenthub.peers import PeerCertificateError, RevocationList
from agenthub.protocol.aic import aic_host
from agenthub.transport import CALL_TIMEOUT_SECONDS

logger = logging.getLogger(__name__)

RENEW_AFTER = 2 / 3
"""A certificate is renewed once this much of its lifetime has passed."""


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

    async def peer_client(self, peer_id: str, **kwargs: Any) -> httpx.AsyncClient:
        """An ``httpx.AsyncClient`` for calling agent ``peer_id`` over mutual TLS with another
        library (a2a-sdk, acps-sdk's models, plain httpx): it presents this agent's
        certificate (asked for now if there is none), trusts the hub's CA alone, and asks TLS
        to verify the name the hub's CA gives ``peer_id`` (``{aic}.aic.invalid``, SNI), not
        the endpoint's host, which a certificate holds only where the hub can stand behind
        it. ``kwargs`` go to ``httpx.AsyncClient`` (``timeout``, 60 s unless given, as for the
        kit's own calls; more ``event_hooks``…; not ``verify``: the TLS context is this
        agent's); the caller closes it. The kit's own
        calls do this by themselves (and send the kit's ``X-Request-ID``; this client does
        not)."""
        if "verify" in kwargs:
            raise KitError("peer_client makes its own TLS context: pass no verify=")
        await self.ensure()
        name = aic_host(peer_id)

        async def name_the_peer(request: httpx.Request) -> None:
            request.extensions["sni_hostname"] = name

        hooks = dict(kwargs.pop("event_hooks", None) or {})
        hooks["request"] = [name_the_peer, *hooks.get("request", ())]
        kwargs.setdefault("timeout", CALL_TIMEOUT_SECONDS)
        return httpx.AsyncClient(verify=self.client, event_hooks=hooks, **kwargs)

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
