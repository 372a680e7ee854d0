"""Use cases of authentication: trading an agent's assertion for an access token."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.auth import TokenResponse
from agenthub.protocol.tokens import CLOCK_SKEW_SECONDS, AccessTokenClaims
from app.agents.last_seen import touch_agent
from app.agents.models import Agent
from app.auth import jws
from app.auth.errors import AssertionReplayed, UnknownAgent
from app.auth.keys import HubKeys
from app.auth.models import UsedJti
from app.auth.principal import check_token_key
from app.auth.tokens import check_assertion_claims, issue_access_token
from app.models.types import utcnow


async def active_agent(session: AsyncSession, agent_id: str) -> Agent | None:
    agent = await session.get(Agent, agent_id)
    if agent is None or agent.deleted_at is not None:
        return None
    return agent


async def remember_jti(session: AsyncSession, *, issuer: str, jti: str, exp: int) -> None:
    """Record a single-use token id; a second use of it is a replay (401)."""
    expires_at = datetime.fromtimestamp(exp, UTC) + timedelta(seconds=CLOCK_SKEW_SECONDS)
    session.add(UsedJti(issuer=issuer, jti=jti, expires_at=expires_at))
    try:
        await session.flush()
    except IntegrityError as exc:
        raise AssertionReplayed("The assertion was already used (replay).") from exc


async def exchange_assertion(
    session: AsyncSession, *, keys: HubKeys, issuer: str, assertion: str, lifetime_seconds: int
) -> TokenResponse:
    header = jws.unverified_header(assertion)
    agent = await active_agent(session, header["kid"])
    if agent is None:
        raise UnknownAgent("The assertion's kid names no registered agent.")
    raw = jws.verify(assertion, jws.public_key(agent.public_jwk, agent.key_thumbprint))
    claims = check_assertion_claims(raw, kid=agent.id, issuer=issuer)
    await remember_jti(session, issuer=agent.id, jti=claims.jti, exp=claims.exp)
    agent.last_seen_at = utcnow()
    session.add(agent)
    await session.flush()
    token = issue_access_token(
        keys,
        issuer=issuer,
        agent_id=agent.id,
        key_thumbprint=agent.key_thumbprint,
        nonce=claims.nonce,
        lifetime_seconds=lifetime_seconds,
    )
    return TokenResponse(access_token=token, expires_in=lifetime_seconds)


async def purge_expired_jtis(session: AsyncSession) -> int:
    result = await session.exec(delete(UsedJti).where(col(UsedJti.expires_at) < utcnow()))
    return int(result.rowcount or 0)


async def agent_for_claims(session: AsyncSession, claims: AccessTokenClaims) -> Agent:
    """The agent an access token speaks for, while registered with the key it was bound to."""
    agent = await active_agent(session, claims.sub)
    check_token_key(claims.cnf.get("jkt"), agent.key_thumbprint if agent is not None else None)
    assert agent is not None
    touch_agent(session, agent)
    return agent
