"""The operator's read API (the console's): hub-wide lists, with what each row adds to the
public view it extends, and the hub's health as the console shows it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from agenthub.protocol.agents import AgentCard
from agenthub.protocol.base import CompactWireModel, WireModel
from agenthub.protocol.groups import GroupView
from agenthub.protocol.sessions import SessionView, TaskView

CertificateState = Literal["none", "valid", "expired", "revoked"]


class CertificateSummary(CompactWireModel):
    """The agent's newest certificate from the hub's CA (``none``: it never asked for one);
    what it does not have is left out."""

    state: CertificateState
    serial: str | None = Field(default=None, description="hexadecimal, lowercase")
    not_after: datetime | None = None
    revoked_at: datetime | None = None


class OperatorAgent(AgentCard):
    """An agent's card as the operator lists it: with its newest certificate."""

    certificate: CertificateSummary


class OperatorAgentPage(WireModel):
    items: list[OperatorAgent]
    next_cursor: str | None = None


class OperatorSession(SessionView):
    """A session as the operator lists it: with how many tasks and groups it has."""

    task_count: int = Field(description="the session's tasks, point-to-point and in groups")
    group_count: int = Field(description="the session's groups, sub-groups included")


class OperatorSessionPage(WireModel):
    items: list[OperatorSession]
    next_cursor: str | None = None


class OperatorGroup(GroupView):
    """A group as the operator lists it: with how many active members it has."""

    member_count: int = Field(description="its active members")


class OperatorGroupPage(WireModel):
    items: list[OperatorGroup]
    next_cursor: str | None = None


class OperatorTaskPage(WireModel):
    items: list[TaskView]
    next_cursor: str | None = None


class HubHealth(WireModel):
    """One replica's health, as the console's strip shows it."""

    open_streams: int = Field(description="event streams open on this replica")
    deliveries_per_second: float = Field(
        description="events written to this replica's streams, per second, lately"
    )
    ingest_per_second: float = Field(
        description="messages this replica recorded, per second, lately"
    )
    broker: Literal["ok", "down"]
    store: Literal["ok", "down"]
    version: str
