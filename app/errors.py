"""The HubError tree: every error a client may cause or see, with its HTTP status and a
stable code (the last segment of its problem ``type``). Free of the web framework: the
handlers that render these as ``application/problem+json`` are ``app.api.problems``."""

from __future__ import annotations

from typing import Any

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://agenthub.dev/problems/"


class HubError(Exception):
    """An error a client caused or may see; carries its HTTP status and a stable code."""

    status: int = 400
    code: str = "bad-request"
    title: str = "Bad request"

    def __init__(self, detail: str | None = None, *, headers: dict[str, str] | None = None):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        self.headers = headers or {}


class BadRequest(HubError):
    status, code, title = 400, "bad-request", "Bad request"


class InvalidInput(HubError):
    status, code, title = 422, "invalid-input", "Invalid input"


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


class MessageWithoutData(InvalidInput):
    """A plain message with no data items: GB/Z 185.6 Table 3 makes its data mandatory."""

    code = "message-without-data"


class Unauthenticated(HubError):
    status, code, title = 401, "unauthenticated", "Authentication required"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": "Bearer"})


class UnknownAgent(Unauthenticated):
    """A token names an agent the hub does not know (never registered, or deregistered)."""

    code = "unknown-agent"


class Forbidden(HubError):
    status, code, title = 403, "forbidden", "Not allowed"


class OperatorOnly(Forbidden):
    """An agent's access token on a route of the operator's (``/v1/operator/…``)."""

    code = "operator-only"


class NotFound(HubError):
    status, code, title = 404, "not-found", "Not found"


class Conflict(HubError):
    status, code, title = 409, "conflict", "Conflict"


class AicTaken(Conflict):
    """A registration under an AIC some agent holds, or held."""

    code = "aic-taken"


class TooManyCertificates(Conflict):
    code = "too-many-certificates"


class TooManyTriggers(Conflict):
    code = "too-many-triggers"


class AmbiguousTask(Conflict):
    code = "ambiguous-task-id"


class TaskElsewhere(Conflict):
    """The message names a task of another place: another group, the session's
    point-to-point part, or a group (a task is posted about where it lives)."""

    code = "task-elsewhere"


class TaskExists(Conflict):
    """A start for a task id the session already has, with another partner."""

    code = "task-exists"


class IllegalTaskMove(Conflict):
    """A move the AIP state table can never allow now: the task is final. Not retryable."""

    code = "illegal-task-move"


class WrongTaskRole(Conflict):
    """A command from someone other than the task's leader, a report from other than its
    partner."""

    code = "wrong-task-role"


class SessionClosed(Conflict):
    code = "session-closed"


class GroupConcluded(Conflict):
    code = "group-concluded"


class NotAllowedInState(Conflict):
    """The group's conversation state does not take this post from this sender
    (``agenthub.protocol.groups.POSTING``)."""

    code = "not-allowed-in-state"


class NotYourTurn(Conflict):
    """Under the ``turns`` speaking policy, the floor is another member's."""

    code = "not-your-turn"


class MessageIdReused(Conflict):
    """The sender used this message id before, for another session or group."""

    code = "message-id-reused"


class TaskBusy(Conflict):
    """The task kept moving under this message: send it again (retryable)."""

    code = "task-busy"


class KeyRetired(Conflict):
    code = "key-retired"


class PayloadTooLarge(HubError):
    status, code, title = 413, "payload-too-large", "Payload too large"


class RateLimited(HubError):
    status, code, title = 429, "rate-limited", "Too many requests"


class Unavailable(HubError):
    status, code, title = 503, "unavailable", "Service unavailable"


class SchemaNotMigrated(Unavailable):
    code, title = "schema-not-migrated", "The store is not migrated"


_STATUS_CODES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthenticated", "Authentication required"),
    403: ("forbidden", "Not allowed"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("invalid-input", "Invalid input"),
    429: ("rate-limited", "Too many requests"),
    500: ("internal-error", "Internal server error"),
    503: ("unavailable", "Service unavailable"),
}


def status_code_and_title(status: int) -> tuple[str, str]:
    """A status's default problem code and title."""
    return _STATUS_CODES.get(status, ("error", "Error"))


def problem_body(
    status: int, detail: str, *, code: str | None = None, title: str | None = None, **extra: Any
) -> dict[str, Any]:
    default_code, default_title = status_code_and_title(status)
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + (code or default_code),
        "title": title or default_title,
        "status": status,
        "detail": detail,
    }
    body.update(extra)
    return body
