"""GB/Z Message and its AIP v2 subtypes, discriminated on ``type``."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, TypeAdapter

from agenthub.protocol.base import CompactWireModel, Identifier, WireTime, type_required
from agenthub.protocol.data import DataItem

MAX_DATA_ITEMS = 100
INT_MAX = 2**63 - 1  # what the store's BIGINT holds
MAX_MENTIONS = 500
MAX_NEXT_SPEAKERS = 20


class TaskState(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    WORKING = "working"
    AWAITING_INPUT = "awaiting-input"
    AWAITING_COMPLETION = "awaiting-completion"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELED = "canceled"


class TaskCommandType(StrEnum):
    GET = "get"
    START = "start"
    CONTINUE = "continue"
    CANCEL = "cancel"
    COMPLETE = "complete"
    RE_STREAM = "re-stream"


class GetCommandParams(CompactWireModel):
    """``get``'s ``commandParams`` (AIP §4.4): only history newer than these; null, all."""

    model_config = ConfigDict(extra="ignore")

    last_command_sent_at: WireTime | None = None
    last_state_changed_at: WireTime | None = None


class StartCommandParams(CompactWireModel):
    """``start``'s ``commandParams`` (AIP §4.4); other keys (``notificationConfigId``...)
    are left to their own readers."""

    model_config = ConfigDict(extra="ignore")

    timeout: int | None = Field(
        default=None,
        ge=1,
        le=INT_MAX,
        description="milliseconds: how long the start's answer and each wait for the leader "
        "(awaiting-input, awaiting-completion) take at most; a wait that times out moves the "
        "task on as AIP §4.5 says (to canceled, to completed)",
    )
    max_products_bytes: int | None = Field(default=None, ge=0, le=INT_MAX)


class TaskStatus(CompactWireModel):
    state: TaskState
    state_changed_at: WireTime
    data_items: list[DataItem] | None = Field(default=None, max_length=MAX_DATA_ITEMS)


class Product(CompactWireModel):
    id: Identifier
    name: str | None = Field(default=None, max_length=500)
    description: str | None = Field(default=None, max_length=4000)
    data_items: list[DataItem] = Field(max_length=MAX_DATA_ITEMS)


class MessageBase(CompactWireModel):
    """Fields every message carries (GB/Z Table 3, AIP v2 Message)."""

    model_config = ConfigDict(json_schema_extra=type_required)

    id: Identifier
    sent_at: WireTime
    sender_role: Literal["leader", "partner"]
    sender_id: Identifier
    session_id: Identifier | None = None
    group_id: Identifier | None = None
    mentions: (
        Literal["all"] | Annotated[list[Identifier], Field(max_length=MAX_MENTIONS)] | None
    ) = None
    data_items: list[DataItem] | None = Field(default=None, max_length=MAX_DATA_ITEMS)
    next_speaker: list[Identifier] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NEXT_SPEAKERS,
        description="IoA's next_speaker, in a group: the active members who should speak next "
        "(enforced when the group's speakingPolicy is turns)",
    )
    # GB/Z 185.6 Table 3 extras
    artifact: Literal["communication", "result"] | None = None
    final: StrictBool | None = None
    chunk_index: int | None = Field(default=None, ge=0, le=INT_MAX)
    last_chunk: StrictBool | None = None
    # set by the hub when it records the message; ignored when an agent sends them
    seq: int | None = Field(
        default=None, ge=0, le=INT_MAX, description="per-group order (hub-assigned)"
    )
    received_at: WireTime | None = Field(default=None, description="when the hub recorded it")
    relayed_by: Identifier | None = Field(
        default=None, description="who recorded this answer for its sender (hub-assigned)"
    )
    verified: StrictBool | None = Field(
        default=None,
        description="a relayed answer: whether it carried its sender's signature (hub-assigned)",
    )


class Message(MessageBase):
    """A plain message. GB/Z 185.6 Table 3 makes its data mandatory: the hub refuses one
    without data items when it is posted (``message-without-data``), and reads the ones it
    stored before that rule as they are."""

    type: Literal["message"] = "message"
    task_id: Identifier | None = None


class TaskCommand(MessageBase):
    type: Literal["task-command"] = "task-command"
    command: TaskCommandType
    command_params: dict[str, Any] | None = None
    task_id: Identifier | None = None
    # hub extensions for a start command (API.md "Sessions, messages and tasks")
    partner_id: Identifier | None = None
    parent_task_id: Identifier | None = None
    dependencies: list[Identifier] | None = Field(default=None, max_length=100)


class TaskResult(MessageBase):
    type: Literal["task-result"] = "task-result"
    task_id: Identifier
    status: TaskStatus
    products: list[Product] | None = None
    command_history: list[TaskCommand] | None = None
    status_history: list[TaskStatus] | None = None


class TaskStatusUpdate(MessageBase):
    type: Literal["task-status-update"] = "task-status-update"
    task_id: Identifier
    status: TaskStatus


class ProductChunk(MessageBase):
    type: Literal["product-chunk"] = "product-chunk"
    task_id: Identifier
    product: Product
    append: StrictBool
    last_chunk: StrictBool


AnyMessage = Annotated[
    Message | TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk,
    Field(discriminator="type"),
]

any_message_adapter: TypeAdapter[
    Message | TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk
]
any_message_adapter = TypeAdapter(AnyMessage)


def parse_message(
    data: Any,
) -> Message | TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk:
    """Validate a wire dict (camelCase) into the message type its ``type`` names."""
    return any_message_adapter.validate_python(data)
