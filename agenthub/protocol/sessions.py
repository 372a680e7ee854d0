"""Sessions (GB/Z Table 5), tasks as the hub projects them, and pages of messages."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from agenthub.protocol.base import Identifier, WireModel, patch_schema
from agenthub.protocol.messages import AnyMessage, Product, TaskState, TaskStatus
from agenthub.protocol.oauth import ClientKind

MAX_RECEIVERS = 200
Mode = Literal["p2p", "group"]
SUBMITTED = "submitted"
TaskViewState = TaskState | Literal["submitted"]
"""A task's state at the hub (GB/Z Table 4 ``state``, always set): ``submitted`` from its
start until the partner's first answer, then the AIP state it is in. AIP's own wire objects
(TaskStatus) keep AIP's eight states."""


class ReceiverSpec(WireModel):
    agent_id: Identifier
    mode: Mode = "p2p"
    params: dict[str, Any] | None = None


BridgeProtocol = Literal["a2a"]


class SessionBridge(WireModel):
    """A bridge session: its leader serves a caller of another protocol (an A2A client,
    which records nothing at the hub) and records the caller's task as both sides, the
    caller's commands as the task's leader and its own answers as its partner."""

    protocol: BridgeProtocol
    context_id: str = Field(
        min_length=1, max_length=200, description="the caller's conversation (A2A `contextId`)"
    )
    caller_id: Identifier | None = Field(
        default=None,
        description="the caller, when it proved who it is: a registered agent (a call token, a "
        "hub-issued client certificate or the hub's OAuth token) or an application the "
        "operator registered (the hub's OAuth token); absent for an anonymous caller",
    )
    caller_kind: ClientKind | None = Field(
        default=None,
        description="what `callerId` names: `agent` (also when absent) or `application`, an "
        "OAuth client of the operator's (`POST /v1/operator/oauth-clients`)",
    )


class BridgeCaller(WireModel):
    """Who called through a bridge session: a registered agent or an application the
    operator registered, with the name the hub knows it by (kept after it leaves)."""

    kind: ClientKind
    id: str
    name: str | None = None


class SessionBridgeView(SessionBridge):
    caller: BridgeCaller | None = Field(
        default=None, description="the caller `callerId` names, with its kind and name"
    )


class SessionCreate(WireModel):
    id: Identifier | None = None
    title: str | None = Field(default=None, max_length=500)
    goal: str | None = Field(default=None, max_length=4000)
    receivers: list[ReceiverSpec] = Field(default_factory=list, max_length=MAX_RECEIVERS)
    bridge: SessionBridge | None = Field(
        default=None,
        description="a bridge session: its only receiver is the leader itself, in mode p2p",
    )


class SessionUpdate(WireModel):
    model_config = ConfigDict(json_schema_extra=patch_schema)

    state: Literal["open", "closed"] | None = None
    title: str | None = Field(default=None, max_length=500)
    goal: str | None = Field(default=None, max_length=4000)
    receivers: list[ReceiverSpec] | None = Field(default=None, max_length=MAX_RECEIVERS)


class SessionSender(WireModel):
    agent_id: str
    address: str | None = None


class SessionReceiver(WireModel):
    agent_id: str
    address: str | None = None
    mode: Mode
    params: dict[str, Any] | None = None


class SessionView(WireModel):
    id: str
    sender: SessionSender
    receivers: list[SessionReceiver]
    state: Literal["open", "closed"]
    title: str | None = None
    goal: str | None = None
    bridge: SessionBridgeView | None = None
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None = None


class SessionPage(WireModel):
    items: list[SessionView]
    next_cursor: str | None = None


class MessagePage(WireModel):
    items: list[AnyMessage]
    next_cursor: str | None = None
    caller: BridgeCaller | None = Field(
        default=None,
        description="a bridge session's messages: who called through the bridge, an agent or "
        "an application (its leader's commands here are recorded on that caller's behalf)",
    )


class TaskView(WireModel):
    id: str
    session_id: str
    group_id: str | None = None
    parent_task_id: str | None = None
    leader_id: str
    partner_id: str
    state: TaskViewState = Field(
        description="`submitted` until the partner's first answer, then the task's AIP state"
    )
    status: TaskStatus | None = None
    products: list[Product]
    status_history: list[TaskStatus]
    dependencies: list[str]
    created_at: datetime
    updated_at: datetime
    released_at: datetime | None = Field(
        default=None,
        description="when its session closed while it was still open: the hub released it "
        "(its partner was told, event `task.released`); its `state` stays as its messages left it",
    )
    caller: BridgeCaller | None = Field(
        default=None,
        description="a bridge session's task (its leader serves an A2A caller): who called, "
        "an agent or an application; absent when the caller proved nothing",
    )


class TaskReleased(WireModel):
    """``event: task.released`` (the partner's and the leader's inboxes, and the task's
    group): the task's session closed while the task was still open (GB/Z Fig. 5 step 10,
    Fig. 6 step 24), so the partner may let go of it; ``state`` is the task's state then."""

    task_id: str
    session_id: str
    group_id: str | None = None
    leader_id: str
    partner_id: str
    state: TaskViewState
    reason: Literal["session-closed"] = "session-closed"
    released_at: datetime


class TaskPage(WireModel):
    items: list[TaskView]
    next_cursor: str | None = None


class SessionContext(WireModel):
    """A session's history (GB/Z Table 5 ``context``): one page of its point-to-point
    messages, oldest first, and of its tasks, oldest first, each paged on its own cursor."""

    messages: MessagePage
    tasks: TaskPage


class RelayedAnswer(WireModel):
    """A partner's answer to one of the caller's calls, for the hub's record of its task."""

    partner_id: Identifier
    answer: str = Field(
        max_length=4 << 20,
        description="the answer's HTTP body exactly as received: a JSON-RPC response "
        "whose result is a TaskResult",
    )
    signature: str | None = Field(
        default=None, max_length=8192, description="the answer's X-Agent-Signature, if any"
    )
    nonce: str | None = Field(
        default=None, max_length=200, description="the nonce of the call it answered"
    )


MAX_BATCH = 100


class MessageBatch(WireModel):
    """Messages to record in one request, each on its own (``POST …/messages:batch``)."""

    items: list[AnyMessage] = Field(min_length=1, max_length=MAX_BATCH)


class SessionsBatch(WireModel):
    """Messages of any of the caller's sessions to record in one request, each in the
    session its ``sessionId`` names (``POST /v1/sessions/messages:batch``)."""

    items: list[AnyMessage] = Field(min_length=1, max_length=MAX_BATCH)
    bridges: dict[Identifier, SessionBridge] = Field(
        default_factory=dict,
        max_length=MAX_BATCH,
        description="bridge sessions of the caller's, by id (each the `sessionId` of an "
        "item): each opened first, as `POST /v1/sessions` opens it, unless a session with "
        "that id is there already",
    )

    @model_validator(mode="after")
    def _bridges_of_items(self) -> SessionsBatch:
        named = {m.session_id for m in self.items}
        if stray := sorted(set(self.bridges) - named):
            raise ValueError(f"bridges name sessions no item is of: {', '.join(stray[:5])}")
        return self


class BatchOutcome(WireModel):
    """What became of one item: its status as ``POST …/messages`` would answer it, and the
    stored message (2xx) or the problem (4xx)."""

    status: int
    message: AnyMessage | None = None
    problem: dict[str, Any] | None = None


class BatchResult(WireModel):
    items: list[BatchOutcome]
