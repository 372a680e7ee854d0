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
MAX_TURN_TIMEOUT_SECONDS = 24 * 3600
DEFAULT_TURN_TIMEOUT_SECONDS = 60.0

JoinPolicy = Literal["invite", "apply", "open"]
MemberRole = Literal["owner", "admin", "member"]
SpeakingPolicy = Literal["free", "turns"]
FloorReason = Literal["named", "spoke", "timeout", "policy", "left"]
"""IoA's ``next_speaker``: under ``free`` a message's ``nextSpeaker`` is advice; under ``turns``
only the named speakers (and the owner, the chair) may speak until one of them has or the
turn's timeout passes, when the floor opens to every member again; a named speaker whose
membership ends is taken off the floor (``left``), which opens once nobody holds it."""


class MemberState(StrEnum):
    INVITED = "invited"
    APPLIED = "applied"
    ACTIVE = "active"
    DECLINED = "declined"
    REJECTED = "rejected"
    LEFT = "left"
    REMOVED = "removed"
    RELEASED = "released"  # the group concluded (GB/Z Fig. 6 release)


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


class PostKind(StrEnum):
    """What a group post is, for the posting table."""

    MESSAGE = "message"  # a ``message``, about a task (``taskId``) or not
    COMMAND = "command"  # a ``task-command``: assigning, continuing, ending a task
    REPORT = "report"  # ``task-result``, ``task-status-update``, ``product-chunk``


MEMBERS = frozenset({"owner", "admin", "member"})
MANAGERS = frozenset({"owner", "admin"})
ASSIGNEES = MANAGERS | {"assignee"}  # managers, and the partners of the group's open tasks
NOBODY: frozenset[str] = frozenset()
_K = PostKind
POSTING: dict[ConversationState, dict[PostKind, frozenset[str]]] = {
    # who may post what in each conversation state (IoA §2.3.3); a report always comes from
    # its task's partner and a command from its leader (the AIP task table checks that)
    _CS.DISCUSSION: {_K.MESSAGE: MEMBERS, _K.COMMAND: MEMBERS, _K.REPORT: MEMBERS},
    # the owner assigns; the group waits for the assignees, who report and may speak
    _CS.SYNC_TASK_ASSIGNMENT: {_K.MESSAGE: ASSIGNEES, _K.COMMAND: MANAGERS, _K.REPORT: MEMBERS},
    # tasks run while the discussion goes on
    _CS.ASYNC_TASK_ASSIGNMENT: {_K.MESSAGE: MEMBERS, _K.COMMAND: MEMBERS, _K.REPORT: MEMBERS},
    # the group waits for its trigger: only posts on the tasks it waits for (PAUSED_TASKS_ONLY)
    _CS.PAUSE_AND_TRIGGER: {_K.MESSAGE: NOBODY, _K.COMMAND: MANAGERS, _K.REPORT: MEMBERS},
    _CS.CONCLUSION: {_K.MESSAGE: NOBODY, _K.COMMAND: NOBODY, _K.REPORT: NOBODY},
}
PAUSED_TASKS_ONLY = frozenset({_CS.PAUSE_AND_TRIGGER})
"""States whose task posts must be on a task one of the group's pending triggers waits for."""


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
    speaking_policy: SpeakingPolicy = "free"
    turn_timeout_seconds: float = Field(
        default=DEFAULT_TURN_TIMEOUT_SECONDS, gt=0, le=MAX_TURN_TIMEOUT_SECONDS
    )


class GroupUpdate(WireModel):
    """Leave out what stays; name, goal and joinPolicy may not be null."""

    name: str | None = Field(default=None, min_length=1, max_length=200, json_schema_extra=not_null)
    goal: str | None = Field(default=None, max_length=4000, json_schema_extra=not_null)
    join_policy: JoinPolicy | None = Field(default=None, json_schema_extra=not_null)
    conversation_state: ConversationState | None = None
    speaking_policy: SpeakingPolicy | None = Field(default=None, json_schema_extra=not_null)
    turn_timeout_seconds: float | None = Field(
        default=None, gt=0, le=MAX_TURN_TIMEOUT_SECONDS, json_schema_extra=not_null
    )


class Floor(WireModel):
    """Who may speak under ``turns``: ``speakers`` (null: every member) until ``deadline``."""

    speakers: list[str] | None = None
    deadline: datetime | None = None


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
    speaking_policy: SpeakingPolicy
    turn_timeout_seconds: float
    floor: Floor
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
    fired_at: datetime | None = Field(
        default=None, description="when it fired, or was cancelled by the group's conclusion"
    )
    outcome: Literal["completed", "timeout", "cancelled"] | None = None
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


class FloorEvent(WireModel):
    """``event: floor``: the floor changed under ``turns``: ``named`` (a post named its next
    speakers), ``spoke`` (a named speaker posted naming no one: the floor opens), ``timeout``
    (no named speaker posted in time: the floor opens), ``policy`` (the policy changed)."""

    group_id: str
    speakers: list[str] | None = Field(description="who may speak now (null: every member)")
    deadline: datetime | None = None
    reason: FloorReason
    by: str | None = None
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
