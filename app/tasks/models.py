"""The hub's Task: a projection of the task messages posted to sessions and groups."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, false
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class Task(SQLModel, table=True):
    """A task is known by its session and its id: ids are the leaders' choice, so one
    session's ids say nothing about, and take nothing from, another's."""

    __tablename__ = "tasks"

    id: str = Field(primary_key=True, max_length=200)
    session_id: str = Field(foreign_key="sessions.id", primary_key=True, index=True, max_length=200)
    group_id: str | None = Field(default=None, index=True, max_length=200)
    parent_task_id: str | None = Field(default=None, max_length=200)
    leader_id: str = Field(foreign_key="agents.id", index=True, max_length=80)
    partner_id: str = Field(foreign_key="agents.id", index=True, max_length=80)
    state: str | None = Field(default=None, max_length=30)
    status: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    products: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    status_history: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    dependencies: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    commanded: bool = Field(
        default=False,
        sa_column=Column(Boolean, nullable=False, server_default=false()),
        description="its status is its leader's command's move, which the partner has not "
        "reported yet (its report of the same move takes the command's place)",
    )
    version: int = Field(default=0, description="bumped on every move; guards concurrent moves")
    last_key: str | None = Field(
        default=None, max_length=600, description="the sort key of the latest message folded in"
    )
    pending: int = Field(default=0, description="messages that wait for a move to allow them")
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    released_at: datetime | None = Field(
        default=None,
        sa_column=Column(UTCDateTime()),
        description="when its session closed while it was still open (GB/Z Fig. 5 step 10)",
    )
