"""Use cases of the hub's OAuth 2.0 token endpoint (client credentials): who the client is
(a registered agent by a client assertion signed with its key, RFC 7523 ``private_key_jwt``;
an application the operator registered by its secret), which agent the token is for (RFC
8707 ``resource``), and the token (RFC 9068). And the operator's applications."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.oauth import (
    ACCESS_TOKEN_TYPE,
    CALL_SCOPE,
    CLIENT_ASSERTION_TYPE,
    AgentAccessClaims,
    ClientKind,
    ClientStanding,
    OAuthClientIssued,
    OAuthClientList,
    OAuthClientView,
    OAuthToken,
)
from agenthub.protocol.tokens import CLOCK_SKEW_SECONDS
from app.a2a_groups.service import a2a_url, group_of_resource
from app.agents.models import Agent
from app.auth import jws
from app.auth.keys import HubKeys
from app.auth.principal import Principal
from app.auth.service import active_agent, remember_jti
from app.errors import HubError
from app.groups.access import visible_group
from app.groups.errors import GroupNotFound
from app.models.types import utcnow
from app.oauth.errors import (
    InvalidClient,
    InvalidScope,
    InvalidTarget,
    InvalidTokenRequest,
    OAuthClientNotFound,
    UnsupportedGrantType,
)
from app.oauth.models import OAuthClient

MAX_CLIENT_ASSERTION_SECONDS = 3600
"""How far ahead a client assertion's ``exp`` may be (OAuth libraries sign for an hour; its
``jti`` is kept that long, so it is single use)."""
MAX_PARAMETER_CHARS = 2000


class TokenForm(BaseModel):
    """The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707 2), each
    parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
    validation error."""

    grant_type: str | None = None
    scope: str | None = None
    resource: str | None = None
    client_id: str | None = None
    client_secret: str | None = None
    client_assertion_type: str | None = None
    client_assertion: str | None = None


@dataclass(frozen=True)
class _Client:
    id: str
    kind: ClientKind
    thumbprint: str | None  # an agent's key at issue time


def _secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def claimed_client(form: TokenForm, basic: tuple[str, str] | None) -> str | None:
    """The client a token request claims to be, unverified (only to count its requests):
    its HTTP Basic id, its ``client_id``, or its client assertion's ``sub``."""
    if basic is not None:
        return basic[0]
    if form.client_id:
        return form.client_id
    if form.client_assertion is None or len(form.client_assertion) > jws.MAX_TOKEN_CHARS:
        return None
    try:
        sub = jws.unverified_claims(form.client_assertion).get("sub")
    except HubError:
        return None
    return sub if isinstance(sub, str) else None


async def issue_token(
    session: AsyncSession,
    form: TokenForm,
    *,
    basic: tuple[str, str] | None,
    keys: HubKeys,
    issuer: str,
    audiences: set[str],
    lifetime_seconds: int,
) -> OAuthToken:
    """A token for ``form``'s client to call the agent its ``resource`` names. ``basic``:
    the client's HTTP Basic credentials, if it sent them (``client_secret_basic``); ``issuer``:
    the hub as an authorization server (its URL); ``audiences``: what a client assertion's
    ``aud`` may name (the token endpoint's URL, the issuer)."""
    for name, value in form.model_dump().items():
        if isinstance(value, str) and len(value) > (
            jws.MAX_TOKEN_CHARS if name == "client_assertion" else MAX_PARAMETER_CHARS
        ):
            raise InvalidTokenRequest(f"The parameter {name} is too long.")
    if not form.grant_type:
        raise InvalidTokenRequest("The parameter grant_type is required.")
    if form.grant_type != "client_credentials":
        raise UnsupportedGrantType("The hub grants client_credentials only.")
    scope = form.scope or CALL_SCOPE
    if scope.split() != [CALL_SCOPE]:
        raise InvalidScope(f"The hub grants the scope {CALL_SCOPE!r} only.")
    if not form.resource:
        raise InvalidTokenRequest(
            "The parameter resource is required: the agent to call (its id, acps://{id} or "
            "its endpoint URL)."
        )
    client = await _client(session, form, basic, audiences)
    group_id = group_of_resource([issuer], form.resource)
    if group_id is not None:
        audience = await _group_target(session, group_id, client, issuer)
    else:
        audience = (await _target(session, form.resource)).id
    now = int(time.time())
    claims = AgentAccessClaims(
        iss=issuer,
        sub=client.id,
        client_id=client.id,
        aud=audience,
        iat=now,
        exp=now + lifetime_seconds,
        jti=secrets.token_urlsafe(16),
        scope=scope,
        client_kind=client.kind,
        cnf={"jkt": client.thumbprint} if client.thumbprint else {},
    )
    token = jws.sign(
        claims.model_dump(exclude_defaults=True),
        keys.signing_key,
        kid=keys.kid,
        typ=ACCESS_TOKEN_TYPE,
    )
    return OAuthToken(access_token=token, expires_in=lifetime_seconds, scope=scope)


async def _client(
    session: AsyncSession, form: TokenForm, basic: tuple[str, str] | None, audiences: set[str]
) -> _Client:
    secret = form.client_secret is not None or basic is not None
    if form.client_assertion is not None:
        if secret:
            raise InvalidTokenRequest("The client authenticates one way only.")
        if form.client_assertion_type != CLIENT_ASSERTION_TYPE:
            raise InvalidTokenRequest(f"client_assertion_type must be {CLIENT_ASSERTION_TYPE}.")
        return await _asserted_agent(session, form.client_assertion, form.client_id, audiences)
    if basic is not None:
        if form.client_secret is not None:
            raise InvalidTokenRequest("The client authenticates one way only.")
        client_id, given = basic
    elif form.client_secret is not None and form.client_id:
        client_id, given = form.client_id, form.client_secret
    else:
        raise InvalidClient(
            "The client did not authenticate: a client assertion (private_key_jwt) or a "
            "client id and secret (HTTP Basic or the form) is required."
        )
    if form.client_id and form.client_id != client_id:
        raise InvalidTokenRequest("client_id is not the client the credentials are for.")
    application = await session.get(OAuthClient, client_id)
    known = application is not None and application.revoked_at is None
    stored = application.secret_sha256 if application is not None else _secret_hash("")
    if not hmac.compare_digest(stored, _secret_hash(given)) or not known:
        raise InvalidClient("The client id or secret is wrong, or the client was revoked.")
    return _Client(client_id, "application", None)


async def _asserted_agent(
    session: AsyncSession, assertion: str, client_id: str | None, audiences: set[str]
) -> _Client:
    try:
        jws.unverified_header(assertion, kid_required=False)
        unverified = jws.unverified_claims(assertion)
    except HubError as exc:
        raise InvalidClient(f"The client assertion is refused: {exc.detail}") from exc
    claimed = unverified.get("sub")
    if not isinstance(claimed, str) or unverified.get("iss") != claimed:
        raise InvalidClient("The client assertion's iss and sub must both be the agent's id.")
    if client_id is not None and client_id != claimed:
        raise InvalidClient("client_id is not the agent the client assertion is from.")
    agent = await active_agent(session, claimed)
    if agent is None:
        raise InvalidClient("The client assertion names no registered agent.")
    try:
        claims = jws.verify(assertion, jws.public_key(agent.public_jwk, agent.key_thumbprint))
    except HubError as exc:
        raise InvalidClient(f"The client assertion is refused: {exc.detail}") from exc
    _check_assertion(claims, audiences)
    try:
        await remember_jti(session, issuer=agent.id, jti=claims["jti"], exp=claims["exp"])
    except HubError as exc:
        raise InvalidClient("The client assertion was used before (replay).") from exc
    return _Client(agent.id, "agent", agent.key_thumbprint)


def _check_assertion(claims: dict[str, Any], audiences: set[str]) -> None:
    """RFC 7523 3: the audience is the hub, the assertion is in date and has a ``jti``."""
    aud = claims.get("aud")
    named = {aud} if isinstance(aud, str) else set(aud) if isinstance(aud, list) else set()
    if not named & audiences:
        raise InvalidClient(
            f"The client assertion's aud must name the hub: one of {sorted(audiences)}."
        )
    exp, iat, jti = claims.get("exp"), claims.get("iat"), claims.get("jti")
    now = int(time.time())
    if type(exp) is not int or exp <= now:
        raise InvalidClient("The client assertion has expired, or has no integer exp.")
    if exp > now + MAX_CLIENT_ASSERTION_SECONDS + CLOCK_SKEW_SECONDS:
        raise InvalidClient(
            f"The client assertion lives longer than {MAX_CLIENT_ASSERTION_SECONDS} s."
        )
    if iat is not None and (type(iat) is not int or iat > now + CLOCK_SKEW_SECONDS):
        raise InvalidClient("The client assertion's iat is no time, or in the future.")
    if not isinstance(jti, str) or not 0 < len(jti) <= 200:
        raise InvalidClient("The client assertion needs a jti (1 to 200 characters).")


async def _group_target(session: AsyncSession, group_id: str, client: _Client, issuer: str) -> str:
    """The audience of a token for a group's A2A endpoint (its URL): for an agent that may
    see the group (a member; any agent for an open group)."""
    agent = await active_agent(session, client.id) if client.kind == "agent" else None
    if agent is None:
        raise InvalidTarget("Only registered agents take part in groups.")
    try:
        await visible_group(session, group_id, Principal(agent=agent, is_operator=False))
    except GroupNotFound as exc:
        raise InvalidTarget("The resource names no group this client may see.") from exc
    return a2a_url(issuer, group_id)


async def _target(session: AsyncSession, resource: str) -> Agent:
    """The agent ``resource`` names: by its id, ``acps://{id}``, or its endpoint URL when no
    other registered agent gives the same URL (an endpoint URL is anyone's to claim, so a
    shared one names no agent: ``invalid_target``)."""
    if resource.startswith("acps://"):
        agent = await active_agent(session, resource.removeprefix("acps://"))
    elif resource.startswith(("https://", "http://")):
        urls = {resource, resource.rstrip("/"), resource.rstrip("/") + "/"}
        sharing = (
            await session.exec(
                select(Agent)
                .where(col(Agent.endpoint_url).in_(urls), col(Agent.deleted_at).is_(None))
                .order_by(col(Agent.id))
                .limit(2)
            )
        ).all()
        if len(sharing) > 1:  # anyone may register any URL: never pick one of them
            raise InvalidTarget(
                "The resource URL is the endpoint of more than one registered agent: name "
                "the agent by its id or acps://{id}."
            )
        agent = sharing[0] if sharing else None
    else:
        agent = await active_agent(session, resource)
    if agent is None:
        raise InvalidTarget("The resource names no registered agent.")
    return agent


# -- the operator's applications ------------------------------------------------------------


def _view(client: OAuthClient) -> OAuthClientView:
    return OAuthClientView(
        client_id=client.id,
        name=client.name,
        created_at=client.created_at,
        revoked_at=client.revoked_at,
    )


async def create_client(session: AsyncSession, name: str) -> OAuthClientIssued:
    secret = secrets.token_urlsafe(32)
    client = OAuthClient(
        id=f"app-{secrets.token_hex(8)}", name=name, secret_sha256=_secret_hash(secret)
    )
    session.add(client)
    await session.flush()
    return OAuthClientIssued(**_view(client).model_dump(), client_secret=secret)


async def list_clients(session: AsyncSession) -> OAuthClientList:
    rows = await session.exec(
        select(OAuthClient).order_by(col(OAuthClient.created_at), col(OAuthClient.id))
    )
    return OAuthClientList(items=[_view(c) for c in rows])


async def revoke_client(session: AsyncSession, client_id: str) -> None:
    """Revoke the application: no new token, and its tokens refused where a partner asks."""
    client = await session.get(OAuthClient, client_id)
    if client is None:
        raise OAuthClientNotFound(f"No OAuth client {client_id!r}.")
    if client.revoked_at is None:
        client.revoked_at = utcnow()
        session.add(client)
        await session.flush()


async def client_standing(session: AsyncSession, client_id: str) -> ClientStanding:
    """Whether ``client_id`` (an agent's id or an application's) may still call."""
    application = await session.get(OAuthClient, client_id)
    if application is not None:
        return ClientStanding(
            client_id=client_id, kind="application", active=application.revoked_at is None
        )
    agent = await active_agent(session, client_id)
    if agent is not None:
        return ClientStanding(client_id=client_id, kind="agent", active=True)
    raise OAuthClientNotFound(f"No agent or OAuth client {client_id!r}.")
