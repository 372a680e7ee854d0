"""The OAuth token endpoint's errors (RFC 6749 5.2, RFC 8707 2) and the operator's clients.

Each is a problem (``application/problem+json``) that also carries the OAuth members an
OAuth client reads, ``error`` and ``error_description``."""

from __future__ import annotations

from typing import Any

from app.errors import BadRequest, HubError, NotFound, Unauthenticated


def _oauth_members(error: HubError) -> dict[str, Any]:
    """The members RFC 6749 5.2 names, beside the problem's own."""
    return {
        "error": getattr(error, "oauth_error", "invalid_request"),
        "error_description": error.detail,
    }


class InvalidTokenRequest(BadRequest):
    """A token request missing a parameter, repeating one, or with one too long."""

    code = "invalid-token-request"
    members = _oauth_members


class UnsupportedGrantType(BadRequest):
    """A grant other than ``client_credentials``."""

    code = "unsupported-grant-type"
    members = _oauth_members
    oauth_error = "unsupported_grant_type"


class InvalidScope(BadRequest):
    """A scope the hub does not grant."""

    code = "invalid-scope"
    members = _oauth_members
    oauth_error = "invalid_scope"


class InvalidTarget(BadRequest):
    """A ``resource`` that names no registered agent, nor a group the client may see
    (RFC 8707)."""

    code = "invalid-target"
    members = _oauth_members
    oauth_error = "invalid_target"


class InvalidClient(Unauthenticated):
    """A client that did not authenticate: unknown, revoked, a wrong secret, or a client
    assertion that does not verify, has expired or was used before."""

    code = "invalid-client"
    members = _oauth_members
    oauth_error = "invalid_client"


class OAuthClientNotFound(NotFound):
    """The operator registered no client with this id."""

    code = "oauth-client-not-found"
