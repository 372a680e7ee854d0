"""Sessions (GB/Z Table 5) and who takes part in them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class Session(SQLModel, table=True):
    __tablename__ = "sessions"

    id: str = Field(primary_key=True, max_length=200)
    leader_id: str = Field(foreign_key="agents.id", index=True, max_length=80)
    title: str | None = Field(default=None, max_length=500)
    goal: str | None = Field(default=None, max_length=4000)
    state: str = Field(default="open", max_length=10)
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    closed_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    bridge: dict[str, Any] | None = Field(
        default=None,
        sa_column=Column(JSON),
        description="a bridge session's bridge (``SessionBridge``): the leader records the "
        "task of a caller of another protocol, as leader and partner both",
    )


class SessionParticipant(SQLModel, table=True):
    """The leader (role ``leader``) and every receiver, with the mode the leader chose:
    ``p2p``, ``group``, or ``hybrid`` for a receiver declared in both (GB/Z §6.4). ``params``
    are its ``p2p`` params (or, in mode ``group``, its group params); a hybrid receiver's
    group params are ``group_params``."""

    __tablename__ = "session_participants"
    __table_args__ = (Index("ix_session_participants_agent", "agent_id", "session_id"),)

    session_id: str = Field(foreign_key="sessions.id", primary_key=True, max_length=200)
    agent_id: str = Field(foreign_key="agents.id", primary_key=True, max_length=80)
    role: str = Field(max_length=10)
    mode: str | None = Field(default=None, max_length=10)
    params: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    group_params: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    position: int = Field(default=0)
