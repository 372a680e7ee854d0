"""Agent certificates: the hub's CA certificate and revocation list, issuing and revoking."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from fastapi import Path, Request, Response, status

from agenthub.protocol.certificates import CertificatePage, CertificateRequest, IssuedCertificate
from app.api.params import AgentIdPath, Cursor, Limit
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.certificates import service
from app.certificates.names import NamePolicy
from app.deps import (
    AdmissionDep,
    CaDep,
    CurrentAgent,
    MetricsDep,
    RevocationListsDep,
    SessionDep,
    SettingsDep,
)
from app.models.types import utcnow

router = hub_router(tags=["certificates"])

PEM_CERTIFICATE = "application/x-pem-file"
SerialPath = Path(alias="serial", max_length=80, pattern="^0*[0-9a-fA-F]{1,40}$")


@router.get(
    "/.well-known/agenthub-ca.pem",
    response_class=Response,
    responses={200: {"content": {PEM_CERTIFICATE: {}}, "description": "the CA certificate"}},
)
async def get_ca_certificate(ca: CaDep) -> Response:
    """The certificate of the hub's CA, PEM: the one trust anchor an agent needs to check
    the certificates of its peers (and the one the kit pins).

    **Who**: anyone; no authentication.
    """
    return Response(ca.pem, media_type=PEM_CERTIFICATE)


@router.get(
    "/.well-known/agenthub-crl.pem",
    response_class=Response,
    responses={
        200: {"content": {PEM_CERTIFICATE: {}}, "description": "the revocation list"},
        304: {"description": "the list the caller holds (`If-None-Match`, `If-Modified-Since`)"},
    },
)
async def get_revocation_list(request: Request, lists: RevocationListsDep) -> Response:
    """The CA's signed list of revoked certificates that have not expired yet, PEM (X.509
    CRL). A certificate is revoked when its agent revokes it, rotates its key or is
    deregistered; the list names it from the moment the revocation is answered. Fetch it
    again at its `nextUpdate` (`AGENTHUB_REVOCATION_LIST_SECONDS`); the answer carries an
    `ETag` and a `Last-Modified` (its `thisUpdate`), and a conditional GET with either is
    answered `304` while the list is the same.

    **Who**: anyone; no authentication.
    """
    signed = await lists.current()
    left = int((signed.next_update - utcnow()).total_seconds())
    headers = {
        "ETag": signed.etag,
        "Last-Modified": format_datetime(signed.this_update, usegmt=True),
        "Cache-Control": f"max-age={max(0, left)}",
    }
    if not_modified(request, etag=signed.etag, modified=signed.this_update):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(signed.pem, media_type=PEM_CERTIFICATE, headers=headers)


def not_modified(request: Request, *, etag: str, modified: datetime) -> bool:
    """RFC 9110 13.1.2-3: ``If-None-Match`` (weak comparison) when sent, else
    ``If-Modified-Since``; an unreadable date is ignored."""
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return "*" in tags or etag in tags
    since = request.headers.get("if-modified-since")
    if since is None:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False
    if when.tzinfo is None:  # RFC 850 and asctime dates are GMT too
        when = when.replace(tzinfo=UTC)
    return modified <= when


@router.post(
    "/v1/agents/{agentId}/certificates",
    status_code=status.HTTP_201_CREATED,
    responses=problem_responses(401, 403, 404, 409, 413, 422, 429),
    response_model_exclude_none=True,
)
async def issue_certificate(
    agent_id: AgentIdPath,
    body: CertificateRequest,
    caller: CurrentAgent,
    session: SessionDep,
    ca: CaDep,
    settings: SettingsDep,
    admission: AdmissionDep,
    metrics: MetricsDep,
) -> IssuedCertificate:
    """A certificate for the caller's registered key, signed by the hub's CA: CN = the
    agent's id (its AIC), SAN URI `acps://{AIC}`, the DNS name `{aic}.aic.invalid` (the name
    a kit leader verifies in the handshake; any client may: see docs/guide/p2p.md), good for
    TLS servers and clients. The host of its `endpointUrl` goes in only when the hub can stand
    behind it: a public DNS name no other live agent's `endpointUrl` uses; a private or
    loopback name likewise only with `AGENTHUB_CERTIFY_PRIVATE_NAMES`, an IP address only with
    `AGENTHUB_CERTIFY_IP_ADDRESSES` (closed networks). It is valid for
    `AGENTHUB_CERTIFICATE_DAYS` days (the kit asks for a new one before then). The CSR (PEM
    PKCS#10) must be signed with the agent's registered key; the hub takes nothing else
    from it.

    **Who**: the agent itself.

    **Errors**: `403` for another agent; `422` with `bad-csr` for a CSR that does not parse
    or whose signature fails, `csr-key-mismatch` for one of another key,
    `endpoint-not-certifiable` when the agent's `endpointUrl` host is no plain DNS name or IP
    address (a wildcard, or a name under `.invalid`); `409` with `too-many-certificates` when
    the agent holds `AGENTHUB_MAX_LIVE_CERTIFICATES_PER_AGENT` unrevoked, unexpired ones
    already; `429` with `Retry-After` past `AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT`.
    """
    if agent_id == caller.id:  # another agent's is refused below, and counts nothing
        admission.certificate(caller.id)
    issued = await service.issue_certificate(
        session,
        ca,
        agent_id=agent_id,
        caller_id=caller.id,
        csr_pem=body.csr,
        days=settings.certificate_days,
        max_live=settings.max_live_certificates_per_agent,
        names=NamePolicy(
            private_names=settings.certify_private_names,
            ip_addresses=settings.certify_ip_addresses,
        ),
    )
    metrics.certificates_issued.inc()
    return issued


@router.get(
    "/v1/agents/{agentId}/certificates",
    responses=problem_responses(400, 401, 403, 404, 422),
    response_model_exclude_none=True,
)
async def list_certificates(
    agent_id: AgentIdPath,
    caller: CurrentAgent,
    session: SessionDep,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> CertificatePage:
    """The caller's certificates that have not expired, newest first, revoked ones with
    their `revokedAt`; a page at a time (`nextCursor` for `?cursor=`).

    **Who**: the agent itself.
    """
    items, next_cursor = await service.list_certificates(
        session, agent_id=agent_id, caller_id=caller.id, limit=limit, cursor=cursor
    )
    return CertificatePage(items=items, next_cursor=next_cursor)


@router.delete(
    "/v1/agents/{agentId}/certificates/{serial}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=problem_responses(401, 403, 404, 422),
)
async def revoke_certificate(
    agent_id: AgentIdPath,
    caller: CurrentAgent,
    session: SessionDep,
    serial: str = SerialPath,
) -> None:
    """Revoke one of the caller's certificates: it is on the revocation list from now on.
    Answers `204`, also for one revoked before.

    **Who**: the agent itself.

    **Errors**: `404` for a serial the agent does not hold.
    """
    await service.revoke_certificate(session, agent_id=agent_id, caller_id=caller.id, serial=serial)
