"""A hub group as A2A sees it (``docs/reference/a2a-group-extension.md``): the group's conversation
is one A2A task (id: the group's id; context: its session), each group event a
``TaskStatusUpdateEvent`` whose metadata carries the extension's fields (the event's
``seq``, its ``kind``, and for a post its ``source``), a post the status update's message.

An event's A2A frame is made once, for every A2A subscriber of the group (kept on the
delivery, ``Delivery.views``); each stream only puts its own request's id in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import orjson
from a2a.types import TaskState
from google.protobuf.json_format import MessageToDict

from agenthub.a2a.convert import A2A_STATE_OF, artifact_of, items_of, parts_of
from agenthub.protocol.messages import TaskState as AipState
from app.broker import Delivery

EXTENSION_URI = "https://agenthub.dev/a2a/ext/group/v1"
"""The extension's URI: the card's ``capabilities.extensions`` entry, the ``A2A-Extensions``
value that activates it, and the key of its fields in every message's and event's
``metadata``."""
WORKING = "TASK_STATE_WORKING"
COMPLETED = "TASK_STATE_COMPLETED"
JSONRPC_REQUEST_BODY = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "description": "A JSON-RPC 2.0 request (A2A v1.0 method names)",
                "required": ["jsonrpc", "method"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": {"type": ["string", "integer", "null"]},
                    "method": {"type": "string"},
                    "params": {"type": "object"},
                },
            }
        }
    },
}
"""The group endpoint's request, as its OpenAPI operation names it."""


def task_state(conversation_state: str) -> str:
    """The group task's A2A state: working while the group speaks, completed once it has
    concluded (its last event)."""
    return COMPLETED if conversation_state == "conclusion" else WORKING


def source(sender_id: str, names: Mapping[str, str]) -> dict[str, str]:
    found = {"id": sender_id}
    if sender_id in names:
        found["name"] = names[sender_id]
    return found


def a2a_message(
    body: Mapping[str, Any],
    *,
    group_id: str,
    context_id: str,
    names: Mapping[str, str],
    ids: bool = True,
) -> dict[str, Any]:
    """A stored group post (its wire body) as an A2A ``Message`` (JSON): the post's id as
    ``messageId``, its data items as parts, and in the extension's metadata its ``seq``,
    ``source`` (the sender's id and name), ``sentAt`` and, when set, ``type`` (a task
    message's), ``taskId``, ``mentions`` and ``nextSpeaker``."""
    sender = str(body.get("senderId", ""))
    fields: dict[str, Any] = {"seq": body.get("seq"), "source": source(sender, names)}
    if body.get("type", "message") != "message":  # a task message: which one
        fields["type"] = body["type"]
    for name in ("mentions", "nextSpeaker", "taskId", "sentAt"):
        if body.get(name) is not None:
            fields[name] = body[name]
    parts = [_part_json(p) for p in parts_of(body.get("dataItems"))]
    message: dict[str, Any] = {"messageId": str(body.get("id", ""))}
    if ids:  # in a status update, the update names them
        message |= {"contextId": context_id, "taskId": group_id}
    return message | {"role": "ROLE_AGENT", "parts": parts, "metadata": {EXTENSION_URI: fields}}


def _part_json(part: Any) -> dict[str, Any]:
    found: dict[str, Any] = MessageToDict(part)
    return found


def status_update(
    *,
    group_id: str,
    context_id: str,
    seq: int,
    kind: str,
    state: str,
    message: dict[str, Any] | None = None,
    event: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One group event as an A2A ``StreamResponse`` (JSON): a status update of the group's
    task, with the event's ``seq`` and ``kind`` (and a non-post event's own fields) in the
    extension's metadata."""
    fields: dict[str, Any] = {"seq": seq, "kind": kind}
    if event is not None:
        fields["event"] = dict(event)
    status: dict[str, Any] = {"state": state}
    if message is not None:
        status["message"] = message
    return {
        "statusUpdate": {
            "taskId": group_id,
            "contextId": context_id,
            "status": status,
            "metadata": {EXTENSION_URI: fields},
        }
    }


def group_task(
    *,
    group_id: str,
    context_id: str,
    state: str,
    last_seq: int,
    history: Iterable[dict[str, Any]] = (),
    at: datetime | None = None,
) -> dict[str, Any]:
    """The group's conversation as an A2A ``Task`` (JSON): its state, the last seq the hub
    holds (the resume cursor of a client that starts here), and ``history`` (A2A messages,
    oldest first)."""
    status: dict[str, Any] = {"state": state}
    if at is not None:
        status["timestamp"] = at.isoformat().replace("+00:00", "Z")
    task: dict[str, Any] = {
        "id": group_id,
        "contextId": context_id,
        "status": status,
        "metadata": {EXTENSION_URI: {"seq": last_seq}},
    }
    listed = list(history)
    if listed:
        task["history"] = listed
    return task


def group_task_of(task: Any) -> dict[str, Any]:
    """A task started in a group (``app.tasks.models.Task``) as an A2A ``Task`` (JSON): its
    state by A2A's names (``agenthub.a2a.convert``), its products as artifacts, and in the
    extension's metadata its hub state (``aipState``), leader and partner."""
    state = A2A_STATE_OF.get(AipState(task.state)) if task.state else None
    fields = {"aipState": task.state, "leaderId": task.leader_id, "partnerId": task.partner_id}
    if task.parent_task_id:
        fields["parentTaskId"] = task.parent_task_id
    found: dict[str, Any] = {
        "id": task.id,
        "contextId": task.session_id,
        "status": {"state": TaskState.Name(state) if state else "TASK_STATE_SUBMITTED"},
        "metadata": {EXTENSION_URI: fields},
    }
    artifacts = [_part_json(artifact_of(p)) for p in task.products or ()]
    if artifacts:
        found["artifacts"] = artifacts
    return found


def _frame_parts(frame: bytes) -> tuple[str, bytes]:
    """The kind and data of one of the hub's SSE frames (``core.outbox.encode_frame``)."""
    kind, data = "message", b"{}"
    for line in frame.split(b"\n"):
        if line.startswith(b"event: "):
            kind = line[7:].decode()
        elif line.startswith(b"data: "):
            data = line[6:]
    return kind, data


def frame_parts(
    delivery: Delivery, *, group_id: str, context_id: str, names: Mapping[str, str]
) -> tuple[bytes, bytes]:
    """The event as an A2A stream's SSE frame, but for its JSON-RPC request's id: what goes
    before the id and what after (``head + id + tail``; the frame's ``id`` is the seq)."""
    result = orjson.dumps(_convert(delivery, group_id, context_id, names))
    return frame_halves(delivery.seq, result)


def frame_halves(seq: int | None, result: bytes) -> tuple[bytes, bytes]:
    """An A2A stream event carrying ``result`` (JSON), as an SSE frame (its ``id`` the seq,
    when it has one), split where its JSON-RPC request's id goes."""
    head = b"" if seq is None else b"id: %d\n" % seq
    return head + b'data: {"jsonrpc":"2.0","id":', b',"result":' + result + b"}\n\n"


def _convert(
    delivery: Delivery, group_id: str, context_id: str, names: Mapping[str, str]
) -> dict[str, Any]:
    kind, data = _frame_parts(delivery.frame)
    body = orjson.loads(data)
    message, event = None, None
    if kind == "message":
        body.setdefault("seq", delivery.seq)
        message = a2a_message(
            body, group_id=group_id, context_id=context_id, names=names, ids=False
        )
    else:
        event = body
    ends = kind == "state" and body.get("state") == "conclusion"
    return status_update(
        group_id=group_id,
        context_id=context_id,
        seq=delivery.seq,
        kind=kind,
        state=COMPLETED if ends else WORKING,
        message=message,
        event=event,
    )


def posted_items(parts: Iterable[Any]) -> list[dict[str, Any]]:
    """An A2A message's parts as the data items of a group post."""
    return items_of(parts)
