"""The agent certificates the hub's CA issued: who holds each, until when, and revocations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime


class Certificate(SQLModel, table=True):
    __tablename__ = "certificates"

    serial: str = Field(primary_key=True, max_length=40, description="hexadecimal, lowercase")
    agent_id: str = Field(foreign_key="agents.id", index=True, max_length=80)
    key_thumbprint: str = Field(max_length=64)
    not_before: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    not_after: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False, index=True))
    revoked_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime(), index=True))
    revoked_reason: str | None = Field(default=None, max_length=40)
    dns_name: str | None = Field(
        default=None, index=True, max_length=253, description="the endpoint's name it carries"
    )
