"""Our AIP v2 wire objects against acps-sdk 2.1.0's models, in both directions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from acps_sdk.aip import aip_base_model as acps
from acps_sdk.aip import aip_stream_model as acps_stream
from pydantic import ValidationError

from agenthub.protocol import (
    Message,
    ProductChunk,
    TaskCommand,
    TaskResult,
    TaskStatusUpdate,
    TextDataItem,
    parse_message,
)
from agenthub.protocol.tasks import leader_command_target, partner_may_report

NOW = "2026-11-30T12:00:00Z"
BASE: dict[str, Any] = {
    "id": "m-1",
    "sentAt": NOW,
    "senderId": "1.2.156.3088.1.AGH.A",
    "sessionId": "s-1",
}
ITEMS: list[dict[str, Any]] = [
    {"type": "text", "text": "hello", "metadata": {"lang": "en"}},
    {"type": "file", "name": "r.pdf", "mimeType": "application/pdf", "uri": "https://x/r.pdf"},
    {"type": "file", "bytes": "aGVsbG8="},
    {"type": "data", "data": {"n": 1, "nested": {"ok": True}}},
]
STATUS = {"state": "awaiting-completion", "stateChangedAt": NOW, "dataItems": ITEMS[:1]}
PRODUCT = {"id": "p-1", "name": "answer", "description": "the result", "dataItems": ITEMS}

SAMPLES: list[tuple[dict[str, Any], type[Any], type[Any]]] = [
    (
        {
            **BASE,
            "type": "message",
            "senderRole": "leader",
            "mentions": "all",
            "dataItems": ITEMS,
            "groupId": "g-1",
        },
        Message,
        acps.Message,
    ),
    (
        {
            **BASE,
            "type": "task-command",
            "senderRole": "leader",
            "command": "start",
            "commandParams": {"timeout": 30},
            "taskId": "t-1",
            "dataItems": ITEMS[:1],
            "mentions": ["1.2.156.3088.1.AGH.B"],
        },
        TaskCommand,
        acps.TaskCommand,
    ),
    (
        {
            **BASE,
            "type": "task-result",
            "senderRole": "partner",
            "taskId": "t-1",
            "status": STATUS,
            "products": [PRODUCT],
            "statusHistory": [STATUS],
            "commandHistory": [
                {
                    **BASE,
                    "type": "task-command",
                    "senderRole": "leader",
                    "command": "continue",
                    "taskId": "t-1",
                }
            ],
        },
        TaskResult,
        acps.TaskResult,
    ),
    (
        {
            **BASE,
            "type": "task-status-update",
            "senderRole": "partner",
            "taskId": "t-1",
            "status": {"state": "working", "stateChangedAt": NOW},
        },
        TaskStatusUpdate,
        acps_stream.TaskStatusUpdateEvent,
    ),
    (
        {
            **BASE,
            "type": "product-chunk",
            "senderRole": "partner",
            "taskId": "t-1",
            "product": PRODUCT,
            "append": True,
            "lastChunk": False,
        },
        ProductChunk,
        acps_stream.ProductChunkEvent,
    ),
]


def _normal(data: Any) -> Any:
    """JSON as acps-sdk dumps it (no nulls), for comparison."""
    if isinstance(data, dict):
        return {k: _normal(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_normal(v) for v in data]
    return data


@pytest.mark.parametrize(("wire", "ours", "theirs"), SAMPLES, ids=[s[0]["type"] for s in SAMPLES])
def test_our_json_validates_as_theirs(
    wire: dict[str, Any], ours: type[Any], theirs: type[Any]
) -> None:
    mine = parse_message(wire)
    assert isinstance(mine, ours)
    dumped = mine.to_wire()
    parsed = theirs.model_validate(dumped)
    assert _normal(json.loads(parsed.model_dump_json(exclude_none=True))) == _normal(dumped)


@pytest.mark.parametrize(("wire", "ours", "theirs"), SAMPLES, ids=[s[0]["type"] for s in SAMPLES])
def test_their_json_validates_as_ours(
    wire: dict[str, Any], ours: type[Any], theirs: type[Any]
) -> None:
    their_json = json.loads(theirs.model_validate(wire).model_dump_json(exclude_none=True))
    mine = parse_message(their_json)
    assert isinstance(mine, ours)
    assert _normal(mine.to_wire()) == _normal(their_json)


def test_stream_event_data_carries_our_objects() -> None:
    for wire, _, _ in SAMPLES[1:]:
        event = acps_stream.StreamEventData.model_validate(
            {"eventSeq": 3, "eventData": parse_message(wire).to_wire()}
        )
        assert event.eventData.type == wire["type"]


@pytest.mark.parametrize(
    "item",
    [
        {"type": "video", "url": "x"},
        {"type": "text"},
        {"type": "file"},
        {"type": "file", "bytes": "not base64!"},
        {"type": "data", "data": [1, 2]},
        {"text": "no type"},
    ],
)
def test_bad_data_items_are_refused(item: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        parse_message({**BASE, "type": "message", "senderRole": "leader", "dataItems": [item]})


def test_unknown_message_type_and_role_are_refused() -> None:
    with pytest.raises(ValidationError):
        parse_message({**BASE, "type": "gossip", "senderRole": "leader"})
    with pytest.raises(ValidationError):
        parse_message({**BASE, "type": "message", "senderRole": "boss"})


def test_snake_case_in_python_camel_case_on_wire() -> None:
    message = Message(
        id="m",
        sent_at=NOW,
        sender_role="leader",  # type: ignore[arg-type]
        sender_id="a",
        session_id="s",
        data_items=[TextDataItem(text="x")],
    )
    assert message.to_wire()["senderId"] == "a" and message.sender_id == "a"


def test_task_state_table() -> None:
    from agenthub.protocol import TaskCommandType as C
    from agenthub.protocol import TaskState as S

    assert partner_may_report(None, S.ACCEPTED) and partner_may_report(None, S.REJECTED)
    assert not partner_may_report(None, S.WORKING)
    assert partner_may_report(S.ACCEPTED, S.WORKING)
    assert partner_may_report(S.WORKING, S.AWAITING_COMPLETION)
    assert partner_may_report(S.WORKING, S.WORKING)  # progress information
    assert not partner_may_report(S.COMPLETED, S.COMPLETED)
    # the waits for the leader timing out are the partner's moves (AIP §4.5 rows 11, 15)
    assert partner_may_report(S.AWAITING_COMPLETION, S.COMPLETED)
    assert partner_may_report(S.AWAITING_INPUT, S.CANCELED)
    assert not partner_may_report(S.AWAITING_INPUT, S.COMPLETED)
    assert not partner_may_report(S.AWAITING_COMPLETION, S.WORKING)  # the leader continues
    assert leader_command_target(S.AWAITING_COMPLETION, C.COMPLETE) == S.COMPLETED
    assert leader_command_target(S.AWAITING_INPUT, C.CONTINUE) == S.WORKING
    assert leader_command_target(S.WORKING, C.COMPLETE) is None
    assert leader_command_target(S.CANCELED, C.CANCEL) is None
    assert leader_command_target(None, C.CANCEL) is None
