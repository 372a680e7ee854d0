"""Each agent's inbox: what is addressed to it, with its own resumable sequence."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class InboxEvent(SQLModel, table=True):
    """``seq`` comes from ``agents.inbox_seq``, whose row lock orders the inbox like a group."""

    __tablename__ = "inbox_events"

    agent_id: str = Field(foreign_key="agents.id", primary_key=True, max_length=80)
    seq: int = Field(sa_column=Column(BigInteger(), primary_key=True))
    kind: str = Field(max_length=20)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
