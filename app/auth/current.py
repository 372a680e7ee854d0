"""Who is calling: the agent behind an access token, or the operator."""

from __future__ import annotations

import secrets
import time

from fastapi import Request
from fastapi.openapi.models import HTTPBearer as HTTPBearerModel
from fastapi.security.base import SecurityBase
from pydantic import SecretStr
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.tokens import AccessTokenClaims
from app.agents.models import Agent
from app.auth import jws
from app.auth.errors import BadAuthorizationHeader, ForeignToken, TokenExpired
from app.auth.keys import HubKeys
from app.auth.service import agent_for_claims
from app.auth.tokens import check_access_token_claims
from app.config import Settings


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise BadAuthorizationHeader("The Authorization header must be 'Bearer <token>'.")
    return token.strip()


class BearerScheme(SecurityBase):
    """A kind of bearer token, as a dependency: FastAPI puts it in the OpenAPI document (its
    ``securitySchemes``, and the ``security`` of each operation that depends on it), and it
    reads the header the hub's way. It answers the token, or None without the header; it
    neither checks the token nor answers FastAPI's 403, so a missing or bad token stays the
    401 problem document of the dependency that checks it."""

    def __init__(self, name: str, description: str, *, bearer_format: str | None = None) -> None:
        self.model = HTTPBearerModel(bearerFormat=bearer_format, description=description)
        self.scheme_name = name

    async def __call__(self, request: Request) -> str | None:
        return bearer_token(request)


ACCESS_TOKEN = BearerScheme(
    "AccessToken",
    "An agent's access token, from `POST /v1/auth/token` (which trades a signed assertion for "
    "it). A compact JWS (ES256) signed with the hub key published at `/.well-known/jwks.json`, "
    "bound to the agent's current key, valid for `expiresIn` seconds.",
    bearer_format="JWT",
)
OPERATOR_TOKEN = BearerScheme(
    "OperatorToken",
    "The operator's secret, the hub's `AGENTHUB_OPERATOR_TOKEN`: registers, lists, reads and "
    "deregisters agents, pre-configures groups, reviews applications and manages members; "
    "reads every session, group and task, and the operator read API (`/v1/operator/…`). "
    "It is no agent: routes where the caller acts as an agent answer it with 401 (or 403).",
)
REGISTRATION_TOKEN = BearerScheme(
    "RegistrationToken",
    "The hub's `AGENTHUB_REGISTRATION_TOKEN`: registers agents (`POST /v1/agents`), nothing "
    "else. Not needed when the hub runs with `AGENTHUB_OPEN_REGISTRATION=true`.",
)


def _matches(token: str | None, expected: SecretStr | None) -> bool:
    """``token`` is the configured secret ``expected`` (compared in constant time)."""
    return bool(
        token
        and expected
        and secrets.compare_digest(token.encode(), expected.get_secret_value().encode())
    )


def is_operator_token(settings: Settings, token: str | None) -> bool:
    return _matches(token, settings.operator_token)


def may_read_metrics(settings: Settings, token: str | None) -> bool:
    """Without ``AGENTHUB_METRICS_TOKEN``, anyone; with it, its holder or the operator."""
    if settings.metrics_token is None or is_operator_token(settings, token):
        return True
    return _matches(token, settings.metrics_token)


def may_register(settings: Settings, token: str | None) -> bool:
    if settings.open_registration or is_operator_token(settings, token):
        return True
    return _matches(token, settings.registration_token)


VERIFIED_CACHE_SIZE = 10_000
_verified: dict[tuple[str, str, str], AccessTokenClaims] = {}


def access_token_claims(token: str, *, keys: HubKeys, issuer: str) -> AccessTokenClaims:
    """The claims of a token this hub signed, still unexpired; else 401.

    A signature verifies once per token (ES256 verification is the costliest step of a
    request): the checked claims are kept, by token and hub key, and their expiry is
    checked again on every use.
    """
    cached = _verified.get((keys.kid, issuer, token))
    if cached is not None:
        if cached.exp <= int(time.time()):
            raise TokenExpired("The access token has expired.")
        return cached
    header = jws.unverified_header(token)
    if header["kid"] != keys.kid:
        raise ForeignToken("The token was not signed by this hub's key.")
    claims = check_access_token_claims(jws.verify(token, keys.verifying_key), issuer=issuer)
    if len(_verified) >= VERIFIED_CACHE_SIZE:
        _verified.clear()
    _verified[(keys.kid, issuer, token)] = claims
    return claims


async def agent_from_access_token(
    session: AsyncSession, *, token: str, keys: HubKeys, issuer: str
) -> Agent:
    return await agent_for_claims(session, access_token_claims(token, keys=keys, issuer=issuer))
