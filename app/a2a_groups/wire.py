"""A hub group as A2A sees it (``docs/a2a-group-extension.md``): the group's conversation
is one A2A task (id: the group's id; context: its session), each group event a
``TaskStatusUpdateEvent`` whose metadata carries the extension's fields (the event's
``seq``, its ``kind``, and for a post its ``source``), a post the status update's message.

An event's A2A JSON is made once, for every A2A subscriber of the group (``A2AFrames``);
each stream only wraps it in its own JSON-RPC response (its request's id).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import orjson

from agenthub.a2a.convert import items_of, parts_of
from app.broker import Delivery

EXTENSION_URI = "https://agenthub.dev/a2a/ext/group/v1"
"""The extension's URI: the card's ``capabilities.extensions`` entry, the ``A2A-Extensions``
value that activates it, and the key of its fields in every message's and event's
``metadata``."""
WORKING = "TASK_STATE_WORKING"
COMPLETED = "TASK_STATE_COMPLETED"
CACHED_EVENTS = 8192
"""Events whose A2A JSON the hub keeps, for the group's other A2A subscribers."""


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
    body: Mapping[str, Any], *, group_id: str, context_id: str, names: Mapping[str, str]
) -> dict[str, Any]:
    """A stored group post (its wire body) as an A2A ``Message`` (JSON): the post's id as
    ``messageId``, its data items as parts, and in the extension's metadata its ``seq``,
    ``source`` (the sender's id and name), ``type`` and, when set, ``mentions`` and
    ``nextSpeaker``."""
    sender = str(body.get("senderId", ""))
    fields: dict[str, Any] = {
        "seq": body.get("seq"),
        "kind": "message",
        "type": body.get("type", "message"),
        "source": source(sender, names),
    }
    for name in ("mentions", "nextSpeaker", "taskId", "sentAt"):
        if body.get(name) is not None:
            fields[name] = body[name]
    parts = [_part_json(p) for p in parts_of(body.get("dataItems"))]
    return {
        "messageId": str(body.get("id", "")),
        "contextId": context_id,
        "taskId": group_id,
        "role": "ROLE_AGENT",
        "parts": parts,
        "metadata": {EXTENSION_URI: fields},
    }


def _part_json(part: Any) -> dict[str, Any]:
    from google.protobuf.json_format import MessageToDict

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


def _frame_parts(frame: bytes) -> tuple[str, bytes]:
    """The kind and data of one of the hub's SSE frames (``streams.events.encode_frame``)."""
    kind, data = "message", b"{}"
    for line in frame.split(b"\n"):
        if line.startswith(b"event: "):
            kind = line[7:].decode()
        elif line.startswith(b"data: "):
            data = line[6:]
    return kind, data


class A2AFrames:
    """The A2A JSON of one group's events, made once for every A2A subscriber (kept for the
    last ``CACHED_EVENTS`` events of the hub); each stream wraps it in its own response."""

    def __init__(self) -> None:
        self._made: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def result(
        self, delivery: Delivery, *, group_id: str, context_id: str, names: Mapping[str, str]
    ) -> bytes:
        key = (group_id, delivery.seq)
        made = self._made.get(key)
        if made is None:
            made = orjson.dumps(self._convert(delivery, group_id, context_id, names))
            self._made[key] = made
            if len(self._made) > CACHED_EVENTS:
                self._made.popitem(last=False)
        return made

    @staticmethod
    def _convert(
        delivery: Delivery, group_id: str, context_id: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        kind, data = _frame_parts(delivery.frame)
        body = orjson.loads(data)
        if kind == "message":
            body.setdefault("seq", delivery.seq)
            message = a2a_message(body, group_id=group_id, context_id=context_id, names=names)
            return status_update(
                group_id=group_id,
                context_id=context_id,
                seq=delivery.seq,
                kind=kind,
                state=WORKING,
                message=message,
            )
        ends = kind == "state" and body.get("state") == "conclusion"
        return status_update(
            group_id=group_id,
            context_id=context_id,
            seq=delivery.seq,
            kind=kind,
            state=COMPLETED if ends else WORKING,
            event=body,
        )


FRAMES = A2AFrames()


def sse_frame(seq: int, request_id: bytes, result: bytes) -> bytes:
    """One A2A stream event: the JSON-RPC response to ``request_id`` (its JSON) carrying
    ``result``, as an SSE frame whose ``id`` is the event's seq (the resume cursor)."""
    return b'id: %d\ndata: {"jsonrpc":"2.0","id":%s,"result":%s}\n\n' % (
        seq,
        request_id,
        result,
    )


def posted_items(parts: Iterable[Any]) -> list[dict[str, Any]]:
    """An A2A message's parts as the data items of a group post."""
    return items_of(parts)
