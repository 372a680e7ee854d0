"""Who is calling: the agent behind an access token, or the operator."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from fastapi import Request
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.tokens import AccessTokenClaims
from app.auth import jws
from app.auth.keys import HubKeys
from app.auth.tokens import check_access_token_claims
from app.config import Settings
from app.errors import Forbidden, Unauthenticated
from app.models import Agent
from app.services.agents import touch_agent
from app.services.auth import active_agent


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("The Authorization header must be 'Bearer <token>'.")
    return token.strip()


def is_operator_token(settings: Settings, token: str | None) -> bool:
    expected = settings.operator_token
    return bool(
        token
        and expected
        and secrets.compare_digest(token.encode(), expected.get_secret_value().encode())
    )


def may_register(settings: Settings, token: str | None) -> bool:
    if settings.open_registration or is_operator_token(settings, token):
        return True
    expected = settings.registration_token
    return bool(
        token
        and expected
        and secrets.compare_digest(token.encode(), expected.get_secret_value().encode())
    )


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
            raise Unauthenticated("The access token has expired.")
        return cached
    header = jws.unverified_header(token)
    if header["kid"] != keys.kid:
        raise Unauthenticated("The token was not signed by this hub's key.")
    claims = check_access_token_claims(jws.verify(token, keys.verifying_key), issuer=issuer)
    if len(_verified) >= VERIFIED_CACHE_SIZE:
        _verified.clear()
    _verified[(keys.kid, issuer, token)] = claims
    return claims


async def agent_from_access_token(
    session: AsyncSession, *, token: str, keys: HubKeys, issuer: str
) -> Agent:
    return await agent_for_claims(session, access_token_claims(token, keys=keys, issuer=issuer))


async def agent_for_claims(session: AsyncSession, claims: AccessTokenClaims) -> Agent:
    """The agent an access token speaks for, while registered with the key it was bound to."""
    agent = await active_agent(session, claims.sub)
    if agent is None:
        raise Unauthenticated("The token's agent is not registered (any more).")
    if claims.cnf.get("jkt") != agent.key_thumbprint:
        raise Unauthenticated("The token was issued for a key the agent has since replaced.")
    await touch_agent(session, agent)
    return agent


@dataclass(frozen=True)
class Principal:
    """The caller of a route open to agents and to the operator."""

    agent: Agent | None
    is_operator: bool

    @property
    def agent_id(self) -> str | None:
        return self.agent.id if self.agent else None


def require_operator(principal: Principal) -> None:
    if not principal.is_operator:
        raise Forbidden("Only the operator may do this.")
