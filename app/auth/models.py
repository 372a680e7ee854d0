"""What authentication remembers: assertion ids already used, until they expire."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime


class UsedJti(SQLModel, table=True):
    """A single-use token id (``jti``) seen from one issuer; kept until the token expires."""

    __tablename__ = "used_jtis"

    issuer: str = Field(primary_key=True, max_length=80)
    jti: str = Field(primary_key=True, max_length=200)
    expires_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False, index=True))
