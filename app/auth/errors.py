"""Authentication's errors: tokens, assertions and who may call."""

from __future__ import annotations

from app.errors import Forbidden, Unauthenticated


class TokenMissing(Unauthenticated):
    """The route needs a bearer token and the request carries none."""

    code = "token-missing"


class BadAuthorizationHeader(Unauthenticated):
    """An Authorization header that is not ``Bearer <token>``."""

    code = "bad-authorization-header"


class MalformedToken(Unauthenticated):
    """A token that is no compact ES256 JWS with a ``kid``, or whose claims are malformed."""

    code = "malformed-token"


class BadTokenSignature(Unauthenticated):
    """A token whose signature does not verify."""

    code = "bad-token-signature"


class ForeignToken(Unauthenticated):
    """An access token that this hub did not issue for itself."""

    code = "foreign-token"


class TokenExpired(Unauthenticated):
    """An access token past its ``exp``."""

    code = "token-expired"


class InvalidAssertion(Unauthenticated):
    """An agent's assertion whose claims do not hold (issuer, audience, times)."""

    code = "invalid-assertion"


class AssertionExpired(Unauthenticated):
    """An agent's assertion past its ``exp``."""

    code = "assertion-expired"


class AssertionReplayed(Unauthenticated):
    """An assertion whose ``jti`` was used before."""

    code = "assertion-replayed"


class UnknownAgent(Unauthenticated):
    """A token names an agent the hub does not know (never registered, or deregistered)."""

    code = "unknown-agent"


class KeyReplaced(Unauthenticated):
    """A token issued for a key the agent has since replaced."""

    code = "key-replaced"


class RegistrationTokenNeeded(Unauthenticated):
    """Registration without the registration token or the operator's."""

    code = "registration-token-needed"


class RegistrationTokenRejected(Unauthenticated):
    """Registration with a token that is neither the registration token nor the operator's."""

    code = "registration-token-rejected"


class OperatorTokenNeeded(Unauthenticated):
    """An operator route called without any token."""

    code = "operator-token-needed"


class OperatorTokenRejected(Unauthenticated):
    """A token that is not the operator's where the operator's is taken, and that is no
    access token either (not a compact JWS): a mistyped or stale operator token."""

    code = "operator-token-rejected"


class MetricsTokenNeeded(Unauthenticated):
    """``/metrics`` without the metrics token, where one is set."""

    code = "metrics-token-needed"


class OperatorOnly(Forbidden):
    """An agent's access token on a route of the operator's (``/v1/operator/…``)."""

    code = "operator-only"
