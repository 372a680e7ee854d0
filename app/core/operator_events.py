"""What the operator's hub-wide stream says: one small summary per thing that happened.

The writers stage these with their other events (``core.outbox.tell_operator``), so they reach the
broker's ``operator`` channel only once their transaction commits, from whichever replica
wrote them; every replica's ``OperatorFeed`` numbers what it hears for its consoles. A frame
here has no ``id:`` line: the feed that numbers it adds one.

Kinds and data (camelCase JSON):

- ``message``: a group post ``{groupId, sessionId, seq, id, senderId, type, sentAt, taskId?,
  text?}`` or a point-to-point record ``{sessionId, id, senderId, type, sentAt, taskId?,
  text?}``; ``text`` is the first text data item, cut to ``TEXT_CHARS``
- ``task``: a task came to be or changed state ``{taskId, sessionId, groupId?, state,
  leaderId, partnerId}``
- ``member``: ``{groupId, agentId, state, role, muted}``
- ``group``: created, or its conversation moved ``{groupId, conversationState, sessionId?,
  parentGroupId?}``
- ``floor``: who may speak now, under ``turns`` ``{groupId, speakers, deadline?}``
- ``session``: opened or closed ``{sessionId, state}``
- ``agent``: ``{agentId, event: registered|updated|deregistered}``
- ``trigger``: a trigger fired ``{groupId, triggerId, outcome}``
- ``reset``: ``{}``, from the feed itself: what came before may be missing, reload
"""

from __future__ import annotations

from typing import Any

import orjson

from app.broker import Delivery

OPERATOR_CHANNEL = "operator"
TEXT_CHARS = 200


def operator_delivery(kind: str, data: dict[str, Any]) -> Delivery:
    """A frame of the operator's stream, to be numbered by the feed (``seq`` 0)."""
    return Delivery(0, b"event: %s\ndata: %s\n\n" % (kind.encode(), orjson.dumps(data)))


def _first_text(body: dict[str, Any]) -> str | None:
    for item in body.get("dataItems") or ():
        if isinstance(item, dict) and item.get("type") == "text":
            text = item.get("text")
            return text[:TEXT_CHARS] if isinstance(text, str) else None
    return None


def message_summary(body: dict[str, Any]) -> dict[str, Any]:
    """A stored message's ``message`` event (the body as the hub stores it: camelCase)."""
    data: dict[str, Any] = {}
    if body.get("groupId") is not None:
        data["groupId"] = body["groupId"]
        data["seq"] = body.get("seq")
    data["sessionId"] = body.get("sessionId")
    for name in ("id", "senderId", "type", "sentAt", "taskId"):
        if body.get(name) is not None:
            data[name] = body[name]
    text = _first_text(body)
    if text is not None:
        data["text"] = text
    return data


def group_event_summary(
    group_id: str, kind: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    """The operator's event for a group stream's event (``member``, ``state``, ``floor``,
    ``trigger.fired``); ``None`` for those the operator learns otherwise."""
    if kind == "member":
        keys = ("agentId", "state", "role", "muted")
        return "member", {"groupId": group_id, **{k: body.get(k) for k in keys}}
    if kind == "state":
        return "group", {"groupId": group_id, "conversationState": body.get("state")}
    if kind == "floor":
        data: dict[str, Any] = {"groupId": group_id, "speakers": body.get("speakers")}
        if body.get("deadline") is not None:
            data["deadline"] = body["deadline"]
        return "floor", data
    if kind == "trigger.fired":
        data = {"triggerId": body.get("triggerId"), "outcome": body.get("outcome")}
        return "trigger", {"groupId": group_id, **data}
    return None


def group_summary(group: Any) -> dict[str, Any]:
    """A new group's ``group`` event (``group``: its row)."""
    data: dict[str, Any] = {"groupId": group.id, "sessionId": group.session_id}
    if group.parent_group_id is not None:
        data["parentGroupId"] = group.parent_group_id
    data["conversationState"] = group.conversation_state
    return data


def task_summary(task: Any, state: str | None) -> dict[str, Any]:
    """A task's ``task`` event (``task``: its row; ``state`` None is ``submitted``)."""
    data: dict[str, Any] = {"taskId": task.id, "sessionId": task.session_id}
    if task.group_id is not None:
        data["groupId"] = task.group_id
    data["state"] = state or "submitted"
    data["leaderId"] = task.leader_id
    data["partnerId"] = task.partner_id
    return data
