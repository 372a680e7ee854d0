"""The certificate authority's errors: CSRs, certificates and how many an agent holds."""

from __future__ import annotations

from app.errors import Conflict, InvalidInput, NotFound


class BadCertificateRequest(InvalidInput):
    """A CSR that is no PEM PKCS#10 request, or whose signature does not check."""

    code = "bad-csr"


class CsrKeyMismatch(InvalidInput):
    """A CSR for another key than the agent's registered one."""

    code = "csr-key-mismatch"


class UncertifiableEndpoint(InvalidInput):
    """The agent's endpointUrl names a host no certificate may carry (a wildcard, a name
    that is no DNS name, or one under ``.invalid``, where the agents' own names live)."""

    code = "endpoint-not-certifiable"


class CertificateNotTrusted(InvalidInput):
    """A registration's certificate that no CA the hub trusts vouches for (or that names no
    AIC, or another key)."""

    code = "certificate-not-trusted"


class CertificateNotFound(NotFound):
    """The agent holds no certificate with this serial."""

    code = "certificate-not-found"


class TooManyCertificates(Conflict):
    """The agent holds as many live certificates as the hub allows."""

    code = "too-many-certificates"
