"""Use cases of the agent registry: register, read, update (key rotation), delete, list.

InvalidInput (422)
├── ProtocolWithoutUrl          code "protocol-without-url"
└── DuplicateProtocolBinding    code "duplicate-protocol-binding"
NotFound (404)
└── NoA2aBinding                code "no-a2a-binding"
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cryptography import x509
from sqlalchemy import bindparam, delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.a2a.card import a2a_card, card_json, sign_card
from agenthub.errors import A2aBindingMissing
from agenthub.protocol.agents import (
    AgentCard,
    AgentName,
    AgentRegistration,
    AgentUpdate,
    BoundProtocol,
    ProtocolBinding,
    Skill,
)
from agenthub.protocol.aic import new_aic
from agenthub.protocol.auth import JWKS_PATH
from agenthub.protocol.jwk import PublicJwk, jwk_thumbprint
from app.agents.errors import (
    AgentNotFound,
    AicTaken,
    DuplicateProtocolBinding,
    InvalidPublicKey,
    KeyRetired,
    NoA2aBinding,
    NotYourAgent,
    ProtocolWithoutUrl,
    PublicKeyTaken,
    UnregisteredAgent,
)
from app.agents.last_seen import is_online
from app.agents.models import Agent, AgentKey, AgentLabel
from app.auth.jws import check_public_jwk
from app.auth.keys import HubKeys
from app.certificates.service import (
    certified_aic,
    revoke_certificates_of,
    revoke_names_claimed,
)
from app.core.unit_of_work import tell_operator
from app.errors import (
    EmptyPatch,
    NullField,
)
from app.models.types import utcnow

AIC_ARSP = "AGH"  # the registration service provider segment of the hub's AICs
AIC_VENDOR = "1"


def new_agent_id() -> str:
    """An ACPs-spec-AIC instance code (10 segments, with its check code)."""
    return new_aic(AIC_ARSP, AIC_VENDOR)


def agent_search_text(name: str, description: str, skills: list[Skill]) -> str:
    parts = [name, description]
    for skill in skills:
        parts += [skill.id, skill.name, skill.description, *skill.tags]
    return " ".join(parts).lower()


def agent_skills_text(skills: list[Skill]) -> str:
    """What the search index reads of the skills (``search/`` weighs it apart from the rest)."""
    parts: list[str] = []
    for skill in skills:
        parts += [skill.id, skill.name, skill.description, *skill.tags]
    return " ".join(parts)


IMPLICIT_PROTOCOL = "aip"  # what an agent that declared nothing answers at its endpoint


def bound_protocols(
    declared: list[dict[str, Any]], endpoint_url: str | None
) -> list[BoundProtocol]:
    """The bindings a card shows: those declared, a missing url being the endpoint's; if
    none was declared, AIP at the endpoint (none without one). A declared binding left
    without a url (the endpoint dropped since) is not shown."""
    if not declared:
        return [BoundProtocol(protocol=IMPLICIT_PROTOCOL, url=endpoint_url)] if endpoint_url else []
    shown = []
    for wire in declared:
        binding = ProtocolBinding.model_validate(wire)
        url = str(binding.url) if binding.url is not None else endpoint_url
        if url is not None:
            shown.append(
                BoundProtocol(
                    protocol=binding.protocol,
                    url=url,
                    version=binding.version,
                    transport=binding.transport,
                )
            )
    return shown


def _checked_protocols(
    bindings: list[ProtocolBinding], endpoint_url: str | None
) -> list[dict[str, Any]]:
    """``bindings`` as stored, once each resolves to a url of its own (422 otherwise)."""
    if endpoint_url is None and any(b.url is None for b in bindings):
        raise ProtocolWithoutUrl("A protocol binding without a url needs an endpointUrl.")
    stored = [b.to_wire() for b in bindings]
    shown = bound_protocols(stored, endpoint_url)
    resolved = [(b.protocol, b.url, b.transport or "JSONRPC") for b in shown]
    if len(resolved) != len(set(resolved)):
        raise DuplicateProtocolBinding(
            "Each protocol binding (protocol, url, the endpointUrl by default, and transport) "
            "may appear once."
        )
    return stored


def _labels(agent_id: str, skills: list[Skill], protocols: list[BoundProtocol]) -> list[AgentLabel]:
    values = {("skill", s.id) for s in skills} | {("tag", t) for s in skills for t in s.tags}
    values |= {("protocol", p.protocol) for p in protocols}
    return [AgentLabel(agent_id=agent_id, kind=k, value=v) for k, v in sorted(values)]


async def _usable_key(session: AsyncSession, jwk: PublicJwk, *, owner: str | None) -> str:
    public = jwk.public_dict()
    if not check_public_jwk(public):
        raise InvalidPublicKey(
            "publicJwk is not a valid P-256 public key (point not on the curve)."
        )
    thumbprint = jwk_thumbprint(public)
    taken = await session.scalar(
        select(Agent.id).where(Agent.key_thumbprint == thumbprint, col(Agent.deleted_at).is_(None))
    )
    if taken is not None and taken != owner:
        raise PublicKeyTaken("Another agent is registered with this public key.")
    return thumbprint


async def register_agent(
    session: AsyncSession,
    *,
    body: AgentRegistration,
    trusted_cas: tuple[x509.Certificate, ...] = (),
) -> Agent:
    """A new agent, with an AIC of the hub's, or the one its ``certificate`` proves."""
    thumbprint = await _usable_key(session, body.public_jwk, owner=None)
    agent_id = new_agent_id()
    if body.certificate is not None:
        agent_id = certified_aic(body.certificate, trusted_cas, body.public_jwk.public_dict())
        if await session.get(Agent, agent_id) is not None:
            raise AicTaken(f"An agent is or was registered as {agent_id}.")
    endpoint_url = str(body.endpoint_url) if body.endpoint_url else None
    protocols = _checked_protocols(body.protocols, endpoint_url)
    now = utcnow()
    agent = Agent(
        id=agent_id,
        name=body.name,
        description=body.description,
        version=body.version,
        provider=body.provider,
        skills=[s.to_wire() for s in body.skills],
        endpoint_url=endpoint_url,
        protocols=protocols,
        public_jwk=body.public_jwk.public_dict(),
        key_thumbprint=thumbprint,
        search_text=agent_search_text(body.name, body.description, body.skills),
        skills_text=agent_skills_text(body.skills),
        created_at=now,
        updated_at=now,
    )
    session.add(agent)
    await session.flush()
    session.add(
        AgentKey(
            agent_id=agent.id, thumbprint=thumbprint, public_jwk=agent.public_jwk, created_at=now
        )
    )
    session.add_all(_labels(agent.id, body.skills, bound_protocols(protocols, endpoint_url)))
    tell_operator(session, "agent", {"agentId": agent.id, "event": "registered"})
    try:
        await session.flush()
    except IntegrityError as exc:  # the same certified AIC, registered just now
        raise AicTaken(f"An agent is or was registered as {agent_id}.") from exc
    await revoke_names_claimed(session, agent, now=now)  # a name is one agent's, or no one's
    return agent


async def get_agent(session: AsyncSession, agent_id: str) -> Agent:
    agent = await session.get(Agent, agent_id)
    if agent is None or agent.deleted_at is not None:
        raise AgentNotFound(f"No agent {agent_id!r}.")
    return agent


async def get_agent_name(session: AsyncSession, agent_id: str) -> AgentName:
    """The name an id was registered with, registered or deregistered (the row stays)."""
    agent = await session.get(Agent, agent_id)
    if agent is None:
        raise AgentNotFound(f"No agent {agent_id!r} was ever registered.")
    return AgentName(id=agent.id, name=agent.name, deregistered_at=agent.deleted_at)


async def update_agent(
    session: AsyncSession, *, agent: Agent, caller_id: str, body: AgentUpdate
) -> Agent:
    if agent.id != caller_id:
        raise NotYourAgent("An agent may change only its own card.")
    fields = body.model_fields_set
    if not fields:
        raise EmptyPatch("The patch changes nothing.")
    now = utcnow()
    for name in ("name", "description", "version", "provider"):
        if name in fields:
            value = getattr(body, name)
            if name in ("name", "description") and value is None:
                raise NullField(f"{name} cannot be null.")
            setattr(agent, name, value)
    if "endpoint_url" in fields:
        agent.endpoint_url = str(body.endpoint_url) if body.endpoint_url else None
        await revoke_names_claimed(session, agent, now=now)  # a name is one agent's, or no one's
    skills = [Skill.model_validate(s) for s in agent.skills]
    if "skills" in fields:
        skills = body.skills or []
        agent.skills = [s.to_wire() for s in skills]
    if fields & {"protocols", "endpoint_url"}:
        declared = (body.protocols or []) if "protocols" in fields else agent.protocols
        bindings = [ProtocolBinding.model_validate(b) for b in declared]
        agent.protocols = _checked_protocols(bindings, agent.endpoint_url)
    if fields & {"skills", "protocols", "endpoint_url"}:
        await session.exec(delete(AgentLabel).where(col(AgentLabel.agent_id) == agent.id))
        protocols = bound_protocols(agent.protocols, agent.endpoint_url)
        session.add_all(_labels(agent.id, skills, protocols))
    if "public_jwk" in fields and body.public_jwk is not None:
        await _rotate_key(session, agent, body.public_jwk, now)
    agent.search_text = agent_search_text(agent.name, agent.description, skills)
    agent.skills_text = agent_skills_text(skills)
    agent.updated_at = now
    session.add(agent)
    tell_operator(session, "agent", {"agentId": agent.id, "event": "updated"})
    await session.flush()
    return agent


async def _rotate_key(session: AsyncSession, agent: Agent, jwk: PublicJwk, now: datetime) -> None:
    """A new key voids every token bound to the old one (access tokens carry cnf.jkt)."""
    thumbprint = await _usable_key(session, jwk, owner=agent.id)
    if thumbprint == agent.key_thumbprint:
        return
    retired = await session.scalar(
        select(AgentKey.id).where(
            col(AgentKey.agent_id) == agent.id,
            col(AgentKey.thumbprint) == thumbprint,
            col(AgentKey.retired_at).is_not(None),
        )
    )
    if retired is not None:  # back to an old key would revive the tokens bound to it
        raise KeyRetired("This agent retired that key before; a retired key stays retired.")
    await session.exec(
        update(AgentKey)
        .where(col(AgentKey.agent_id) == agent.id, col(AgentKey.retired_at).is_(None))
        .values(retired_at=now)
    )
    session.add(
        AgentKey(
            agent_id=agent.id, thumbprint=thumbprint, public_jwk=jwk.public_dict(), created_at=now
        )
    )
    agent.public_jwk = jwk.public_dict()
    agent.key_thumbprint = thumbprint
    await revoke_certificates_of(session, agent.id, reason="key rotated", now=now)


async def retire_agent(
    session: AsyncSession, *, agent_id: str, caller_id: str | None, is_operator: bool
) -> None:
    """The registry's part of a deregistration (``agents.deregistration`` commits)."""
    agent = await get_agent(session, agent_id)
    if not is_operator and agent.id != caller_id:
        raise NotYourAgent("Only the agent itself or the operator may deregister it.")
    now = utcnow()
    agent.deleted_at = now
    agent.updated_at = now
    await session.exec(
        update(AgentKey)
        .where(col(AgentKey.agent_id) == agent.id, col(AgentKey.retired_at).is_(None))
        .values(retired_at=now)
    )
    await session.exec(delete(AgentLabel).where(col(AgentLabel.agent_id) == agent.id))
    await revoke_certificates_of(session, agent.id, reason="deregistered", now=now)
    session.add(agent)
    tell_operator(session, "agent", {"agentId": agent.id, "event": "deregistered"})


async def require_registered(db: AsyncSession, ids: list[str], *, purpose: str = "") -> None:
    """422 unless every id names a registered (not deregistered) agent."""
    if not ids:
        return
    rows = await db.exec(
        select(Agent.id).where(col(Agent.id).in_(ids), col(Agent.deleted_at).is_(None))
    )
    found = set(rows.all())
    unknown = [i for i in ids if i not in found]
    if unknown:
        raise UnregisteredAgent(f"No registered agent {unknown[0]!r}{purpose}.")


CURRENT_KEYS = select(col(Agent.id), col(Agent.key_thumbprint)).where(
    col(Agent.id).in_(bindparam("ids", expanding=True)), col(Agent.deleted_at).is_(None)
)
"""The registered agents among ``ids``, with the thumbprints of their keys."""


def to_card(agent: Agent, *, score: float | None = None, now: datetime | None = None) -> AgentCard:
    return AgentCard(
        id=agent.id,
        name=agent.name,
        description=agent.description,
        version=agent.version,
        provider=agent.provider,
        skills=[Skill.model_validate(s) for s in agent.skills],
        endpoint_url=agent.endpoint_url,
        protocols=bound_protocols(agent.protocols, agent.endpoint_url),
        public_jwk=agent.public_jwk,
        status="online" if is_online(agent, now) else "offline",
        last_seen_at=agent.last_seen_at,
        created_at=agent.created_at,
        updated_at=agent.updated_at,
        score=score,
    )


def a2a_card_json(
    agent: Agent, hub_url: str, keys: HubKeys, version: str | None = None
) -> dict[str, Any]:
    """The agent's A2A Agent Card as JSON for a client of A2A ``version``
    (``agenthub.a2a.card``), naming the hub at ``hub_url`` as its OAuth token issuer and
    signed by the hub's key; 404 without an A2A binding."""
    try:
        card = a2a_card(to_card(agent), hub_url=hub_url)
        signed = sign_card(card, keys.private_key, kid=keys.kid, jwks_url=f"{hub_url}{JWKS_PATH}")
        return card_json(signed, version=version)
    except A2aBindingMissing as exc:
        raise NoA2aBinding(f"Agent {agent.id!r} declares no A2A protocol binding.") from exc
