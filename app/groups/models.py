"""Groups (the message distribution module), their members, their events and triggers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class Group(SQLModel, table=True):
    """A group chat inside a session; ``last_seq`` is the per-group event counter."""

    __tablename__ = "groups"

    id: str = Field(primary_key=True, max_length=200)
    session_id: str = Field(foreign_key="sessions.id", index=True, max_length=200)
    parent_group_id: str | None = Field(
        default=None, foreign_key="groups.id", index=True, max_length=200
    )
    depth: int = Field(default=0)
    name: str = Field(max_length=200)
    goal: str | None = Field(default=None, max_length=4000)
    join_policy: str = Field(max_length=10)
    owner_id: str = Field(foreign_key="agents.id", max_length=80)
    conversation_state: str = Field(default="discussion", max_length=30)
    speaking_policy: str = Field(default="free", max_length=10)
    turn_timeout_seconds: float = Field(default=60.0)
    floor: list[str] | None = Field(
        default=None, sa_column=Column(JSON), description="who may speak under turns (null: all)"
    )
    floor_deadline: datetime | None = Field(
        default=None, sa_column=Column(UTCDateTime(), index=True)
    )
    configured_by_operator: bool = Field(default=False)
    last_seq: int = Field(default=0, sa_column=Column(BigInteger(), nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )


class GroupMember(SQLModel, table=True):
    """One agent's standing in one group; ``active_since_seq`` is where its membership began."""

    __tablename__ = "group_members"
    __table_args__ = (Index("ix_group_members_agent", "agent_id", "group_id"),)

    group_id: str = Field(foreign_key="groups.id", primary_key=True, max_length=200)
    agent_id: str = Field(foreign_key="agents.id", primary_key=True, max_length=80)
    role: str = Field(default="member", max_length=10)
    state: str = Field(max_length=10)
    muted: bool = Field(default=False)
    speak_grants: int = Field(default=0)
    note: str | None = Field(default=None, max_length=2000)
    active_since_seq: int = Field(default=0, sa_column=Column(BigInteger(), nullable=False))
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )


class GroupEvent(SQLModel, table=True):
    """A group event other than a message (``member``, ``state``, ``trigger.fired``).

    It takes its ``seq`` from the same counter as the group's messages, so one ordered
    stream replays from both tables.
    """

    __tablename__ = "group_events"

    group_id: str = Field(foreign_key="groups.id", primary_key=True, max_length=200)
    seq: int = Field(sa_column=Column(BigInteger(), primary_key=True))
    kind: str = Field(max_length=20)
    actor_id: str | None = Field(default=None, max_length=80)
    subject_id: str | None = Field(default=None, max_length=80)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )


class GroupTrigger(SQLModel, table=True):
    """Fires ``trigger.fired`` once, when all its tasks are final or its deadline passes."""

    __tablename__ = "group_triggers"
    __table_args__ = (Index("ix_group_triggers_pending", "fired_at", "deadline"),)

    id: str = Field(primary_key=True, max_length=200)
    group_id: str = Field(foreign_key="groups.id", index=True, max_length=200)
    created_by: str = Field(foreign_key="agents.id", max_length=80)
    task_ids: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    deadline: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    fired_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    outcome: str | None = Field(default=None, max_length=20)
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )


class GroupTriggerTask(SQLModel, table=True):
    """Which pending triggers wait for a task: found by task id when the task moves."""

    __tablename__ = "group_trigger_tasks"
    __table_args__ = (Index("ix_group_trigger_tasks_task", "task_id", "session_id"),)

    trigger_id: str = Field(foreign_key="group_triggers.id", primary_key=True, max_length=200)
    task_id: str = Field(primary_key=True, max_length=200)
    session_id: str = Field(max_length=200, description="the task's (and the group's) session")
