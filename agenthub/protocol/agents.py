"""The agent card (GB/Z 185.4 description, trimmed): what an agent registers and what others see."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AnyHttpUrl,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from agenthub.protocol.base import CompactWireModel, WireModel, not_null, patch_schema
from agenthub.protocol.jwk import PublicJwk

Label = Annotated[str, StringConstraints(min_length=1, max_length=100)]
MAX_SKILLS = 50
MAX_TAGS = 30

AgentStatus = Literal["online", "offline"]
ProtocolName = Literal["aip", "a2a"]
"""The protocols an agent may be reached by: AIP v2 JSON-RPC (``aip``), A2A (``a2a``)."""
MAX_PROTOCOLS = 8


AGENT_ID_SHAPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,199}")
"""What an agent id may look like (the hub's AIC-shaped ids and ACPs AICs fit): a check on
ids read from untrusted places, such as a call token's unverified ``kid``."""


class Skill(WireModel):
    id: Label
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=2000)
    tags: list[Label] = Field(default_factory=list, max_length=MAX_TAGS)
    input_types: list[Label] | None = Field(default=None, max_length=MAX_TAGS)
    output_types: list[Label] | None = Field(default=None, max_length=MAX_TAGS)


def _unique_skill_ids(skills: list[Skill] | None) -> list[Skill] | None:
    if skills is not None:
        ids = [s.id for s in skills]
        if len(ids) != len(set(ids)):
            raise ValueError("skill ids must be unique")
    return skills


A2aTransport = Literal["JSONRPC", "HTTP+JSON"]
"""An A2A binding's transport (A2A's ``protocolBinding``): JSON-RPC, or HTTP+JSON (REST)."""
TRANSPORT_DESCRIPTION = (
    "an `a2a` binding's transport (A2A's `protocolBinding`): `JSONRPC` (the default) or "
    "`HTTP+JSON` (REST, its paths below `url`); only for `a2a`"
)


class ProtocolBinding(WireModel):
    """A protocol the agent answers, and where (what an agent declares)."""

    protocol: ProtocolName
    url: AnyHttpUrl | None = Field(default=None, description="by default, the `endpointUrl`")
    version: str | None = Field(default=None, min_length=1, max_length=50)
    transport: A2aTransport | None = Field(default=None, description=TRANSPORT_DESCRIPTION)

    @model_validator(mode="after")
    def _transport_is_a2a(self) -> ProtocolBinding:
        if self.transport is not None and self.protocol != "a2a":
            raise ValueError("only an a2a binding names a transport")
        return self


class BoundProtocol(CompactWireModel):
    """A protocol the agent answers, and where (as its card shows it)."""

    protocol: ProtocolName
    url: str
    version: str | None = None
    transport: A2aTransport | None = Field(default=None, description=TRANSPORT_DESCRIPTION)


def _unique_bindings(bindings: list[ProtocolBinding] | None) -> list[ProtocolBinding] | None:
    if bindings is not None:
        declared = [(b.protocol, b.url, b.transport or "JSONRPC") for b in bindings]
        if len(declared) != len(set(declared)):
            raise ValueError("each protocol binding (protocol, url and transport) may appear once")
    return bindings


class AgentRegistration(WireModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=4000)
    version: str | None = Field(default=None, max_length=50)
    provider: str | None = Field(default=None, max_length=200)
    skills: list[Skill] = Field(default_factory=list, max_length=MAX_SKILLS)
    endpoint_url: AnyHttpUrl | None = None
    protocols: list[ProtocolBinding] = Field(
        default_factory=list,
        max_length=MAX_PROTOCOLS,
        description="the protocols the agent answers; none declared: AIP at `endpointUrl`",
    )
    public_jwk: PublicJwk
    certificate: str | None = Field(
        default=None,
        min_length=1,
        max_length=32_768,
        description="register under the AIC you already hold: your certificate (PEM, leaf "
        "first, then any intermediates) from a CA the hub trusts (AGENTHUB_TRUSTED_CA_FILE), "
        "for publicJwk's key; its AIC (SAN URI acps://{AIC}) becomes the id",
    )

    _skills = field_validator("skills")(_unique_skill_ids)
    _protocols = field_validator("protocols")(_unique_bindings)


class AgentUpdate(WireModel):
    """What an agent may change about itself; a new ``publicJwk`` is a key rotation."""

    model_config = ConfigDict(json_schema_extra=patch_schema)

    name: str | None = Field(default=None, min_length=1, max_length=200, json_schema_extra=not_null)
    description: str | None = Field(default=None, max_length=4000, json_schema_extra=not_null)
    version: str | None = Field(default=None, max_length=50)
    provider: str | None = Field(default=None, max_length=200)
    skills: list[Skill] | None = Field(default=None, max_length=MAX_SKILLS)
    endpoint_url: AnyHttpUrl | None = None
    protocols: list[ProtocolBinding] | None = Field(default=None, max_length=MAX_PROTOCOLS)
    public_jwk: PublicJwk | None = None

    _skills = field_validator("skills")(_unique_skill_ids)
    _protocols = field_validator("protocols")(_unique_bindings)


class AgentCard(WireModel):
    id: str
    name: str
    description: str
    version: str | None = None
    provider: str | None = None
    skills: list[Skill]
    endpoint_url: str | None = None
    protocols: list[BoundProtocol] = Field(
        default_factory=list,
        description="how the agent is reached: its declared bindings, or, if it declared "
        "none, AIP at its `endpointUrl` (none without one)",
    )
    public_jwk: dict[str, str]
    status: AgentStatus
    last_seen_at: datetime | None = None
    created_at: datetime
    updated_at: datetime
    score: float | None = Field(default=None, description="relevance to `q`, when searched")


class AgentName(WireModel):
    """Who an id names, also after the agent deregistered: the record (a group's owner, a
    message's sender) keeps naming the agents that left."""

    id: str
    name: str
    deregistered_at: datetime | None = Field(
        default=None, description="when it deregistered; null while it is registered"
    )


class AgentPage(WireModel):
    items: list[AgentCard]
    next_cursor: str | None = None
