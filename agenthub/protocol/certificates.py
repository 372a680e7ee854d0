"""Bodies of the certificate endpoints: a CSR in, a leaf certificate (and its CA) out."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from agenthub.protocol.base import WireModel


class CertificateRequest(WireModel):
    csr: str = Field(
        min_length=1,
        max_length=16_384,
        description="a PEM PKCS#10 request signed with the agent's registered key; its subject "
        "is ignored (the hub names the agent)",
    )


class IssuedCertificate(WireModel):
    serial: str = Field(description="the certificate's serial number, lowercase hexadecimal")
    agent_id: str
    not_before: datetime
    not_after: datetime
    revoked_at: datetime | None = None
    certificate: str | None = Field(
        default=None, description="the leaf, PEM (in the answer to its request)"
    )
    ca_certificate: str | None = Field(
        default=None, description="the hub's CA certificate, PEM (in the answer to a request)"
    )


class CertificatePage(WireModel):
    items: list[IssuedCertificate]
    next_cursor: str | None = Field(default=None, description="for `?cursor=`: more follow")
