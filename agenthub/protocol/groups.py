"""Groups on the wire: the message distribution module's resources and events."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field

from agenthub.protocol.base import Identifier, WireModel, not_null
from agenthub.protocol.messages import AnyMessage

MAX_INVITES = 200
MAX_TRIGGER_TASKS = 100
MAX_TRIGGER_TIMEOUT_SECONDS = 7 * 24 * 3600

JoinPolicy = Literal["invite", "apply", "open"]
MemberRole = Literal["owner", "admin", "member"]


class MemberState(StrEnum):
    INVITED = "invited"
    APPLIED = "applied"
    ACTIVE = "active"
    DECLINED = "declined"
    REJECTED = "rejected"
    LEFT = "left"
    REMOVED = "removed"


class ConversationState(StrEnum):
    """IoA's conversation flow control (§2.3.3); ``conclusion`` is final."""

    DISCUSSION = "discussion"
    SYNC_TASK_ASSIGNMENT = "sync-task-assignment"
    ASYNC_TASK_ASSIGNMENT = "async-task-assignment"
    PAUSE_AND_TRIGGER = "pause-and-trigger"
    CONCLUSION = "conclusion"


_CS = ConversationState
CONVERSATION_MOVES: dict[ConversationState, frozenset[ConversationState]] = {
    _CS.DISCUSSION: frozenset(
        {_CS.SYNC_TASK_ASSIGNMENT, _CS.ASYNC_TASK_ASSIGNMENT, _CS.CONCLUSION}
    ),
    _CS.SYNC_TASK_ASSIGNMENT: frozenset(
        {_CS.DISCUSSION, _CS.ASYNC_TASK_ASSIGNMENT, _CS.CONCLUSION}
    ),
    _CS.ASYNC_TASK_ASSIGNMENT: frozenset(
        {_CS.DISCUSSION, _CS.SYNC_TASK_ASSIGNMENT, _CS.PAUSE_AND_TRIGGER, _CS.CONCLUSION}
    ),
    _CS.PAUSE_AND_TRIGGER: frozenset({_CS.DISCUSSION, _CS.CONCLUSION}),
    _CS.CONCLUSION: frozenset(),
}


class GroupCreate(WireModel):
    session_id: Identifier
    name: str = Field(min_length=1, max_length=200)
    goal: str | None = Field(default=None, max_length=4000)
    parent_group_id: Identifier | None = None
    join_policy: JoinPolicy = "invite"
    invite_ids: list[Identifier] = Field(default_factory=list, max_length=MAX_INVITES)
    owner_id: Identifier | None = Field(
        default=None, description="operator only: the agent that owns a pre-configured group"
    )
    member_ids: list[Identifier] = Field(
        default_factory=list,
        max_length=MAX_INVITES,
        description="operator only: agents made active members of a pre-configured group",
    )


class GroupUpdate(WireModel):
    """Leave out what stays; name, goal and joinPolicy may not be null."""

    name: str | None = Field(default=None, min_length=1, max_length=200, json_schema_extra=not_null)
    goal: str | None = Field(default=None, max_length=4000, json_schema_extra=not_null)
    join_policy: JoinPolicy | None = Field(default=None, json_schema_extra=not_null)
    conversation_state: ConversationState | None = None


class MemberView(WireModel):
    agent_id: str
    role: MemberRole
    state: MemberState
    muted: bool
    note: str | None = None
    updated_at: datetime


class GroupView(WireModel):
    id: str
    session_id: str
    parent_group_id: str | None = None
    depth: int
    name: str
    goal: str | None = None
    join_policy: JoinPolicy
    owner_id: str
    conversation_state: ConversationState
    last_seq: int
    configured_by_operator: bool
    members: list[MemberView]
    created_at: datetime
    updated_at: datetime


class GroupTreeNode(WireModel):
    id: str
    name: str
    depth: int
    parent_group_id: str | None = None
    conversation_state: ConversationState
    children: list[GroupTreeNode] = Field(default_factory=list)


class GroupList(WireModel):
    items: list[GroupTreeNode]
    next_cursor: str | None = None


class MemberList(WireModel):
    items: list[MemberView]
    next_cursor: str | None = None


class InvitationCreate(WireModel):
    agent_id: Identifier


class ApplicationCreate(WireModel):
    note: str | None = Field(default=None, max_length=2000)


class GroupMessagePage(WireModel):
    items: list[AnyMessage]
    next_cursor: str | None = Field(default=None, description="the last seq, for ?after=")


class TriggerCreate(WireModel):
    task_ids: list[Identifier] = Field(min_length=1, max_length=MAX_TRIGGER_TASKS)
    timeout_seconds: float | None = Field(default=None, gt=0, le=MAX_TRIGGER_TIMEOUT_SECONDS)


class TriggerView(WireModel):
    id: str
    group_id: str
    created_by: str
    task_ids: list[str]
    deadline: datetime | None = None
    fired_at: datetime | None = None
    outcome: Literal["completed", "timeout"] | None = None
    created_at: datetime


class MemberEvent(WireModel):
    """``event: member`` in the group stream and the affected agent's inbox."""

    group_id: str
    agent_id: str
    role: MemberRole
    state: MemberState
    muted: bool
    by: str | None = Field(default=None, description="who made the change (null: operator)")
    note: str | None = None
    at: datetime


class StateEvent(WireModel):
    """``event: state``: a conversation state move."""

    group_id: str
    previous: ConversationState
    state: ConversationState
    by: str | None = None
    reason: str | None = None
    at: datetime


class TriggerFired(WireModel):
    """``event: trigger.fired``."""

    group_id: str
    trigger_id: str
    outcome: Literal["completed", "timeout"]
    tasks: list[dict[str, Any]]
    at: datetime


class MemberRoleUpdate(WireModel):
    role: Literal["admin", "member"]


class TriggerList(WireModel):
    items: list[TriggerView]
    next_cursor: str | None = None
