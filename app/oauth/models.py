"""The applications the operator lets call agents through the hub's OAuth token endpoint:
clients that are not agents, each with a secret kept only as its hash."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class OAuthClient(SQLModel, table=True):
    """An operator-registered OAuth client (client credentials with a client secret)."""

    __tablename__ = "oauth_clients"

    id: str = Field(primary_key=True, max_length=80)
    name: str = Field(max_length=200)
    secret_sha256: str = Field(max_length=64)
    """The secret's SHA-256 (hex): the secret is 32 random bytes, so a plain hash is enough."""
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    revoked_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
