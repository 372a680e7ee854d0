"""Annotated dependency aliases used by the routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.tokens import AccessTokenClaims
from app.agents.models import Agent
from app.agents.semantic import SemanticReranker
from app.api.routing import resolves_itself
from app.auth import jws
from app.auth.ca import HubCA
from app.auth.current import (
    ACCESS_TOKEN,
    OPERATOR_TOKEN,
    REGISTRATION_TOKEN,
    access_token_claims,
    agent_from_access_token,
    bearer_token,
    is_operator_token,
)
from app.auth.errors import OperatorOnly, OperatorTokenNeeded, OperatorTokenRejected, TokenMissing
from app.auth.keys import HubKeys
from app.auth.principal import Principal
from app.auth.service import agent_for_claims
from app.broker import Broker
from app.certificates.revocation_list import RevocationLists
from app.config import Settings
from app.core.unit_of_work import transaction
from app.limits import Admission
from app.metrics import HubMetrics, Rates
from app.middleware import AGENT
from app.records.ingest import Ingest
from app.records.record import Outcome, Record
from app.streams.operator_feed import OperatorFeed
from app.streams.presence import Presence
from app.streams.sse import Streams


# Dependencies are ``async def`` even when they do not await: FastAPI runs a plain ``def``
# dependency in a worker thread, which costs more than the work itself.
async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_keys(request: Request) -> HubKeys:
    keys: HubKeys = request.app.state.keys
    return keys


async def get_ca(request: Request) -> HubCA:
    ca: HubCA = request.app.state.ca
    return ca


async def get_revocation_lists(request: Request) -> RevocationLists:
    lists: RevocationLists = request.app.state.revocation_lists
    return lists


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """The request's one transaction (``core.unit_of_work``): committed once its route
    returned and before the answer is sent (the dependency's ``scope="function"``), what it
    staged published then; rolled back when the route raised."""
    async with transaction(request.app.state.session_factory) as session:
        yield session


async def get_presence(request: Request) -> Presence:
    presence: Presence = request.app.state.presence
    return presence


async def get_admission(request: Request) -> Admission:
    admission: Admission = request.app.state.admission
    return admission


async def get_ingest(request: Request) -> Ingest:
    ingest: Ingest = request.app.state.ingest
    return ingest


async def get_streams(request: Request) -> Streams:
    streams: Streams = request.app.state.streams
    return streams


async def get_metrics(request: Request) -> HubMetrics:
    metrics: HubMetrics = request.app.state.metrics
    return metrics


async def get_broker(request: Request) -> Broker:
    broker: Broker = request.app.state.broker
    return broker


async def get_engine(request: Request) -> AsyncEngine:
    engine: AsyncEngine = request.app.state.engine
    return engine


async def get_operator_feed(request: Request) -> OperatorFeed:
    feed: OperatorFeed = request.app.state.operator_feed
    return feed


async def get_rates(request: Request) -> Rates:
    rates: Rates = request.app.state.rates
    return rates


async def get_reranker(request: Request) -> SemanticReranker | None:
    reranker: SemanticReranker | None = request.app.state.reranker
    return reranker


@dataclass(slots=True)
class Readiness:
    """Whether the store's schema was found at head once (a schema does not go back)."""

    app_state: Any

    @property
    def schema_ready(self) -> bool:
        return bool(self.app_state.schema_ready)

    def schema_at_head(self) -> None:
        self.app_state.schema_ready = True


async def get_readiness(request: Request) -> Readiness:
    return Readiness(request.app.state)


SettingsDep = Annotated[Settings, Depends(get_settings)]
StreamsDep = Annotated[Streams, Depends(get_streams)]
MetricsDep = Annotated[HubMetrics, Depends(get_metrics)]
BrokerDep = Annotated[Broker, Depends(get_broker)]
EngineDep = Annotated[AsyncEngine, Depends(get_engine)]
OperatorFeedDep = Annotated[OperatorFeed, Depends(get_operator_feed)]
RatesDep = Annotated[Rates, Depends(get_rates)]
RerankerDep = Annotated[SemanticReranker | None, Depends(get_reranker)]
ReadinessDep = Annotated[Readiness, Depends(get_readiness)]
AdmissionDep = Annotated[Admission, Depends(get_admission)]
IngestDep = Annotated[Ingest, Depends(get_ingest)]
PresenceDep = Annotated[Presence, Depends(get_presence)]
KeysDep = Annotated[HubKeys, Depends(get_keys)]
CaDep = Annotated[HubCA, Depends(get_ca)]
RevocationListsDep = Annotated[RevocationLists, Depends(get_revocation_lists)]
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]

# The bearer token of the request, each alias declaring one kind a route accepts (the
# OpenAPI document's security); all read the same header.
AccessTokenDep = Annotated[str | None, Depends(ACCESS_TOKEN)]
OperatorTokenDep = Annotated[str | None, Depends(OPERATOR_TOKEN)]
RegistrationTokenDep = Annotated[str | None, Depends(REGISTRATION_TOKEN)]


NOT_THE_OPERATORS = "This operator token is not the hub's."


async def require_operator(token: OperatorTokenDep, settings: SettingsDep, keys: KeysDep) -> None:
    """The operator's token; an agent's access token is refused as such (403), any other
    token as not the operator's (401)."""
    if token is None:
        raise OperatorTokenNeeded("This route needs 'Authorization: Bearer <operator token>'.")
    if is_operator_token(settings, token):
        return
    if not jws.is_compact(token):
        raise OperatorTokenRejected(NOT_THE_OPERATORS)
    access_token_claims(token, keys=keys, issuer=settings.issuer)  # 401 unless the hub's
    raise OperatorOnly("Only the operator reads this: an agent's access token is refused.")


async def get_access_claims(
    request: Request, token: AccessTokenDep, settings: SettingsDep, keys: KeysDep
) -> AccessTokenClaims:
    """An agent's verified access token, before anything is read from the store."""
    if token is None:
        raise TokenMissing("This route needs 'Authorization: Bearer <access token>'.")
    claims = access_token_claims(token, keys=keys, issuer=settings.issuer)
    request.scope[AGENT] = claims.sub  # the access log's agent_id
    return claims


AccessClaims = Annotated[AccessTokenClaims, Depends(get_access_claims)]


@dataclass(frozen=True, slots=True)
class Recorder:
    """What the record routes need of a request, from one dependency: the caller's verified
    access token, the hub's writer and the posting rate (each dependency FastAPI solves is
    a fixed cost of every request; these routes are the hub's busiest)."""

    claims: AccessTokenClaims
    ingest: Ingest
    admission: Admission

    async def one(self, message: Any, **place: Any) -> Outcome:
        """Record one message (or a relayed answer, in ``place``) from the caller at
        ``place``: its outcome, or its refusal raised; 429 first if over the rate."""
        self.admission.post(self.claims.sub)
        return await self.ingest.one(Record.of(self.claims, message, **place))

    def record(self, message: Any, **place: Any) -> Record:
        return Record.of(self.claims, message, **place)


async def get_recorder(request: Request, token: AccessTokenDep) -> Recorder:
    state = request.app.state
    if token is None:
        raise TokenMissing("This route needs 'Authorization: Bearer <access token>'.")
    claims = access_token_claims(token, keys=state.keys, issuer=state.settings.issuer)
    request.scope[AGENT] = claims.sub
    return Recorder(claims, state.ingest, state.admission)


async def _recorder(request: Request) -> Recorder:
    return await get_recorder(request, bearer_token(request))


resolves_itself(get_recorder, _recorder)  # the record routes' one dependency (api.routing)
RecorderDep = Annotated[Recorder, Depends(get_recorder)]


async def get_current_agent(claims: AccessClaims, session: SessionDep) -> Agent:
    return await agent_for_claims(session, claims)


async def get_principal(
    request: Request,
    token: AccessTokenDep,
    _: OperatorTokenDep,  # the same header: declares that the operator's token is taken too
    session: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
) -> Principal:
    """An agent (by its access token) or the operator (by the operator token)."""
    if token is None:
        raise TokenMissing("This route needs 'Authorization: Bearer <token>'.")
    if is_operator_token(settings, token):
        return Principal(agent=None, is_operator=True)
    if not jws.is_compact(token):  # no access token: a mistyped or stale operator token
        raise OperatorTokenRejected("This operator token is not the hub's (nor an access token).")
    agent = await agent_from_access_token(session, token=token, keys=keys, issuer=settings.issuer)
    request.scope[AGENT] = agent.id
    return Principal(agent=agent, is_operator=False)


CurrentAgent = Annotated[Agent, Depends(get_current_agent)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
