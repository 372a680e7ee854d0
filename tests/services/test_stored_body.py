"""``stored.stored_body`` builds the stored body from the message's wire object: it must
be, key for key and in the same order, what copying the model with the hub's placement and
serializing it gives."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from agenthub.protocol.messages import parse_message
from app.records.messages import as_received
from app.records.stored import Placement, received_wire, stored_body

SENT = "2026-12-03T16:00:00+08:00"
TEXT = [{"type": "text", "text": "hi"}]


def _messages() -> list[dict[str, Any]]:
    base = {"id": "m-1", "sentAt": SENT, "senderId": "1.2.156.3088.1.AGH.A"}
    status = {"state": "working", "stateChangedAt": SENT}
    return [
        {**base, "type": "message", "senderRole": "leader", "mentions": [], "dataItems": TEXT},
        {
            **base,
            "type": "message",
            "senderRole": "partner",
            "mentions": "all",
            "dataItems": TEXT,
            "artifact": "result",
            "final": True,
            "chunkIndex": 2,
            "lastChunk": True,
        },
        {
            **base,
            "type": "message",
            "senderRole": "leader",
            "sessionId": "s-9",
            "groupId": "g-9",
            "seq": 41,
            "receivedAt": SENT,
            "relayedBy": "someone",
            "verified": True,
            "nextSpeaker": ["x"],
            "mentions": ["x"],
            "dataItems": TEXT,
        },
        {
            **base,
            "type": "task-command",
            "senderRole": "leader",
            "taskId": "t-1",
            "command": "start",
            "partnerId": "p",
            "commandParams": {"a": [1, {"b": None}]},
            "dataItems": TEXT,
        },
        {
            **base,
            "type": "task-command",
            "senderRole": "leader",
            "taskId": "t-1",
            "command": "cancel",
        },
        {
            **base,
            "type": "task-result",
            "senderRole": "partner",
            "taskId": "t-1",
            "status": {**status, "dataItems": TEXT},
            "products": [{"id": "p1", "dataItems": TEXT}],
        },
        {
            **base,
            "type": "task-status-update",
            "senderRole": "partner",
            "taskId": "t-1",
            "status": status,
        },
    ]


PLACES = [
    Placement("s-1", datetime(2026, 12, 3, 8, 0, 1, 5, tzinfo=UTC)),
    Placement("s-1", datetime(2026, 12, 3, 8, 0, 1, tzinfo=UTC), task_id="t-2"),
    Placement("s-1", datetime.now(UTC), group_id="g-1", seq=7),
    Placement("s-1", datetime.now(timezone(timedelta(hours=8))), group_id="g-1", seq=None),
    Placement("s-1", datetime.now(UTC), task_id="t-1", group_id="g-1", seq=3),
]


@pytest.mark.parametrize(
    ("wire", "at"), list(itertools.product(_messages(), PLACES)), ids=lambda v: str(v)[:40]
)
@pytest.mark.parametrize("received", [False, True])
def test_the_stored_body_is_the_placed_copy_serialized(
    wire: dict[str, Any], at: Placement, received: bool
) -> None:
    message = parse_message(wire)
    if received:
        message = as_received(message)
    updates: dict[str, Any] = {"session_id": at.session_id, "received_at": at.received_at}
    if at.task_id is not None:
        updates["task_id"] = at.task_id
    if at.group_id is not None:
        updates |= {"group_id": at.group_id, "seq": at.seq}
    expected = message.model_copy(update=updates).to_wire()
    for given in (None, message.to_wire()):
        body = stored_body(message, at, given)
        assert list(body.items()) == list(expected.items())  # the same keys, in order


def test_the_received_wire_is_the_wire_of_the_message_as_received() -> None:
    for wire in _messages():
        message = parse_message(wire)
        assert received_wire(message.to_wire()) == as_received(message).to_wire()
