"""Every message the hub recorded, point-to-point or group, in arrival order."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index, Integer, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from app.models.types import UTCDateTime, utcnow


class StoredMessage(SQLModel, table=True):
    """The wire message as sent (``body``) plus what the hub adds: ``seq`` and ``received_at``.

    ``(sender_id, message_id)`` is unique, so a retried post finds the stored copy.
    """

    __tablename__ = "messages"
    __table_args__ = (
        UniqueConstraint("sender_id", "message_id", name="uq_messages_sender_message"),
        Index("ix_messages_session_pk", "session_id", "pk"),
        # a task is named within its session: both, so that SQLite (no statistics) does not
        # read the whole session by ix_messages_session_pk to find one task's few messages;
        # a task's waiting messages are among them. Partial: a message of no task (a group
        # post, most of a busy group's rows) is in no task index, and a point-to-point
        # message in no group index: each index a row is in is pages its COMMIT writes
        Index(
            "ix_messages_session_task_pk",
            "session_id",
            "task_id",
            "pk",
            sqlite_where=text("task_id IS NOT NULL"),
            postgresql_where=text("task_id IS NOT NULL"),
        ),
        Index(
            "ix_messages_group_seq",
            "group_id",
            "seq",
            sqlite_where=text("group_id IS NOT NULL"),
            postgresql_where=text("group_id IS NOT NULL"),
        ),
    )

    pk: int | None = Field(
        default=None,
        sa_column=Column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True),
    )
    message_id: str = Field(max_length=200)
    sender_id: str = Field(max_length=80)
    session_id: str = Field(max_length=200)
    group_id: str | None = Field(default=None, max_length=200)
    task_id: str | None = Field(default=None, max_length=200)
    type: str = Field(max_length=30)
    seq: int | None = Field(default=None, sa_column=Column(BigInteger()))
    body: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    waiting: bool = Field(
        default=False, description="a task message whose move waits for one that allows it"
    )
    received_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False)
    )
    trace_context: str | None = Field(
        default=None,
        max_length=60,
        description="the W3C traceparent of the span that recorded it (a group post's "
        "publish), when the hub traces; each SSE delivery carries it",
    )
