"""Agent certificates: issue one for a CSR signed with the agent's registered key, list them,
revoke them (by hand, at key rotation, at deregistration) and publish the revocation list.

How a peer learns of a revocation: certificates live days (``AGENTHUB_CERTIFICATE_DAYS``), and
the CA's revocation list (``/.well-known/agenthub-crl.pem``) names every revoked one until it
expires; the list says when to fetch it again (``nextUpdate``). A kit agent also compares the
certificate's key with the registry's, so a rotated or deregistered agent's certificate stops
working as soon as the peer's cached card is refreshed.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from sqlalchemy import delete, func, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.peers import aic_of
from agenthub.protocol.aic import is_aic
from agenthub.protocol.certificates import IssuedCertificate
from agenthub.protocol.jwk import ec_public_jwk, jwk_thumbprint
from app.agents.errors import AgentNotFound, NotYourAgent
from app.agents.models import Agent
from app.auth.ca import HubCA
from app.certificates.errors import (
    BadCertificateRequest,
    CertificateNotFound,
    CertificateNotTrusted,
    CsrKeyMismatch,
    TooManyCertificates,
    UncertifiableEndpoint,
)
from app.certificates.models import Certificate
from app.certificates.names import NamePolicy, endpoint_host, endpoint_name, is_ip_address
from app.models.types import utcnow
from app.pages import Keyset

_PEM_CSR = re.compile(
    r"-----BEGIN CERTIFICATE REQUEST-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE REQUEST-----"
)


def _csr_key(csr_pem: str) -> ec.EllipticCurvePublicKey:
    if _PEM_CSR.fullmatch(csr_pem.strip()) is None:  # one block, nothing before or after it
        raise BadCertificateRequest("csr is not one PEM certificate request, and only that.")
    try:
        csr = x509.load_pem_x509_csr(csr_pem.encode())
        key = csr.public_key()
        signed = csr.is_signature_valid
    except (ValueError, TypeError, UnicodeEncodeError, UnsupportedAlgorithm) as exc:
        raise BadCertificateRequest("csr is not a PEM PKCS#10 certificate request.") from exc
    if not signed:
        raise BadCertificateRequest("The CSR's signature does not check against its own key.")
    if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, ec.SECP256R1):
        raise CsrKeyMismatch("The CSR's key is not an EC P-256 key (the agent's keys are).")
    return key


def to_wire(
    row: Certificate, *, pem: bytes | None = None, ca: HubCA | None = None
) -> IssuedCertificate:
    return IssuedCertificate(
        serial=row.serial,
        agent_id=row.agent_id,
        not_before=row.not_before,
        not_after=row.not_after,
        revoked_at=row.revoked_at,
        certificate=pem.decode() if pem else None,
        ca_certificate=ca.pem.decode() if ca else None,
    )


async def _own_agent(db: AsyncSession, agent_id: str, caller_id: str | None) -> Agent:
    agent = await db.get(Agent, agent_id)
    if agent is None or agent.deleted_at is not None:
        raise AgentNotFound("No such agent.")
    if agent.id != caller_id:
        raise NotYourAgent("Only the agent itself may ask for or revoke its certificates.")
    return agent


async def issue_certificate(
    db: AsyncSession,
    ca: HubCA,
    *,
    agent_id: str,
    caller_id: str,
    csr_pem: str,
    days: int,
    max_live: int,
    names: NamePolicy,
) -> IssuedCertificate:
    agent = await _own_agent(db, agent_id, caller_id)
    key = _csr_key(csr_pem)
    if jwk_thumbprint(ec_public_jwk(key)) != agent.key_thumbprint:
        raise CsrKeyMismatch("The CSR's key is not the agent's registered key.")
    now = utcnow()
    live = await db.exec(
        select(func.count())
        .select_from(Certificate)
        .where(
            col(Certificate.agent_id) == agent.id,
            col(Certificate.revoked_at).is_(None),
            col(Certificate.not_after) > now,
        )
    )
    if live.one() >= max_live:
        raise TooManyCertificates(
            f"The agent holds {max_live} live certificates, as many as it may; revoke one "
            "it no longer uses (DELETE …/certificates/{serial}) first."
        )
    serial = x509.random_serial_number()
    not_after = now + timedelta(days=days)
    host = await endpoint_name(db, agent, names)
    leaf = ca.issue(
        key,
        aic=agent.id,
        host=host,
        serial=serial,
        not_before=now,
        not_after=not_after,
    )
    row = Certificate(
        serial=format(serial, "x"),
        agent_id=agent.id,
        key_thumbprint=agent.key_thumbprint,
        not_before=leaf.not_valid_before_utc,
        not_after=leaf.not_valid_after_utc,
        dns_name=host if host is not None and not is_ip_address(host) else None,
    )
    db.add(row)
    await db.flush()
    return to_wire(row, pem=leaf.public_bytes(serialization.Encoding.PEM), ca=ca)


async def purge_expired_certificates(db: AsyncSession, *, before: datetime) -> int:
    """Forget the certificates that expired before ``before``: no list names them any more
    (the revocation list keeps only unexpired ones)."""
    result = await db.exec(delete(Certificate).where(col(Certificate.not_after) < before))
    return int(result.rowcount or 0)


CERTIFICATES = Keyset(
    col(Certificate.not_before), col(Certificate.serial), kinds=(datetime, str), descending=True
)


async def list_certificates(
    db: AsyncSession, *, agent_id: str, caller_id: str | None, limit: int, cursor: str | None
) -> tuple[list[IssuedCertificate], str | None]:
    """A page of the agent's unexpired certificates, newest first, and the next page's
    cursor."""
    await _own_agent(db, agent_id, caller_id)
    stmt = select(Certificate).where(
        col(Certificate.agent_id) == agent_id, col(Certificate.not_after) > utcnow()
    )
    rows, next_cursor = await CERTIFICATES.page(
        db, stmt, cursor=cursor, limit=limit, values=lambda c: (c.not_before, c.serial)
    )
    return [to_wire(row) for row in rows], next_cursor


async def newest_certificates(db: AsyncSession, agent_ids: list[str]) -> dict[str, Certificate]:
    """Each agent's newest certificate (by ``notBefore``), expired or revoked ones included,
    for those of ``agent_ids`` that ever had one: one query for all of them."""
    if not agent_ids:
        return {}
    newest = (
        select(Certificate.agent_id, func.max(Certificate.not_before).label("issued"))
        .where(col(Certificate.agent_id).in_(agent_ids))
        .group_by(col(Certificate.agent_id))
        .subquery()
    )
    rows = await db.exec(
        select(Certificate).join(
            newest,
            (col(Certificate.agent_id) == newest.c.agent_id)
            & (col(Certificate.not_before) == newest.c.issued),
        )
    )
    return {row.agent_id: row for row in rows}


async def revoke_certificate(
    db: AsyncSession, *, agent_id: str, caller_id: str | None, serial: str
) -> None:
    await _own_agent(db, agent_id, caller_id)
    row = await db.get(Certificate, format(int(serial, 16), "x"))
    if row is None or row.agent_id != agent_id:
        raise CertificateNotFound("The agent holds no certificate with this serial.")
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        row.revoked_reason = "revoked by its agent"
        db.add(row)
        await db.flush()


async def revoke_certificates_of(
    db: AsyncSession, agent_id: str, *, reason: str, now: datetime
) -> None:
    """Revoke every live certificate of the agent (its key rotated, or it left); the caller
    commits."""
    await db.exec(
        update(Certificate)
        .where(
            col(Certificate.agent_id) == agent_id,
            col(Certificate.revoked_at).is_(None),
            col(Certificate.not_after) > now,
        )
        .values(revoked_at=now, revoked_reason=reason)
    )


async def revoke_names_claimed(db: AsyncSession, agent: Agent, *, now: datetime) -> None:
    """``agent`` claims the name of its endpoint (registering, or moving it): every other
    agent's live certificate naming it is revoked (``certificates.names``); the caller
    commits."""
    try:
        host = endpoint_host(agent.endpoint_url)
    except UncertifiableEndpoint:
        return
    if host is None or is_ip_address(host):
        return
    await db.exec(
        update(Certificate)
        .where(
            col(Certificate.dns_name) == host,
            col(Certificate.agent_id) != agent.id,
            col(Certificate.revoked_at).is_(None),
            col(Certificate.not_after) > now,
        )
        .values(revoked_at=now, revoked_reason="name claimed by another agent")
    )


def certified_aic(
    chain_pem: str, trusted: tuple[x509.Certificate, ...], public_jwk: dict[str, str]
) -> str:
    """The AIC a registration's certificate proves: its chain verifies to a CA the hub
    trusts (for a TLS client: clientAuth), it names a well-formed AIC, and it certifies
    ``public_jwk``'s key. ``CertificateNotTrusted`` otherwise."""
    if not trusted:
        raise CertificateNotTrusted(
            "This hub trusts no other CA (AGENTHUB_TRUSTED_CA_FILE): register without a "
            "certificate to get an AIC of the hub's."
        )
    try:
        leaf, *intermediates = x509.load_pem_x509_certificates(chain_pem.encode())
        verifier = PolicyBuilder().store(Store(list(trusted))).build_client_verifier()
        verifier.verify(leaf, intermediates)
    except (ValueError, UnicodeEncodeError, UnsupportedAlgorithm) as exc:
        raise CertificateNotTrusted(f"certificate is not a PEM chain: {exc}") from exc
    except VerificationError as exc:
        raise CertificateNotTrusted(f"No CA the hub trusts vouches for it: {exc}.") from exc
    aic = aic_of(leaf)
    if aic is None or not is_aic(aic):
        raise CertificateNotTrusted("The certificate names no AIC (SAN URI acps://{AIC}).")
    key = leaf.public_key()
    if (
        not isinstance(key, ec.EllipticCurvePublicKey)
        or not isinstance(key.curve, ec.SECP256R1)
        or jwk_thumbprint(ec_public_jwk(key)) != jwk_thumbprint(public_jwk)
    ):
        raise CertificateNotTrusted("The certificate is not for publicJwk's key.")
    return aic
