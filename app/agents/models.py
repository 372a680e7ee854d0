"""The agent registry: agents, their key history and their searchable labels."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class Agent(SQLModel, table=True):
    __tablename__ = "agents"

    id: str = Field(primary_key=True, max_length=80)
    name: str = Field(max_length=200)
    description: str = Field(default="", max_length=4000)
    version: str | None = Field(default=None, max_length=50)
    provider: str | None = Field(default=None, max_length=200, index=True)
    skills: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    endpoint_url: str | None = Field(default=None, max_length=2000, index=True)
    protocols: list[dict[str, Any]] = Field(
        default_factory=list,
        sa_column=Column(JSON, nullable=False),
        description="the declared protocol bindings, as sent (a binding without url: the "
        "endpoint's)",
    )
    public_jwk: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    key_thumbprint: str = Field(max_length=64, index=True)
    search_text: str = Field(default="", max_length=20000)
    skills_text: str = Field(
        default="", max_length=20000, description="skill ids, names, descriptions and tags"
    )
    inbox_seq: int = Field(default=0, sa_column=Column(BigInteger(), nullable=False))
    last_seen_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    deleted_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class AgentKey(SQLModel, table=True):
    """Every public key an agent has held; the current one has no ``retired_at``."""

    __tablename__ = "agent_keys"

    id: int | None = Field(default=None, primary_key=True)
    agent_id: str = Field(foreign_key="agents.id", index=True, max_length=80)
    thumbprint: str = Field(max_length=64)
    public_jwk: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    retired_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class AgentLabel(SQLModel, table=True):
    """Skill ids, tags and protocols (kind ``protocol``: those its card shows) of an agent,
    one row each, for exact-match filters."""

    __tablename__ = "agent_labels"
    __table_args__ = (Index("ix_agent_labels_kind_value", "kind", "value"),)

    agent_id: str = Field(foreign_key="agents.id", primary_key=True, max_length=80)
    kind: str = Field(primary_key=True, max_length=10)
    value: str = Field(primary_key=True, max_length=200)
