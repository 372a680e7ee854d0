"""Builders of wire messages for tests."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any


def now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def text(value: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": value}]


def command(
    sender: str, command: str, *, task_id: str | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "task-command",
        "id": f"m-{uuid.uuid4().hex}",
        "sentAt": now(),
        "senderRole": "leader",
        "senderId": sender,
        "command": command,
    }
    if task_id:
        body["taskId"] = task_id
    body.update(extra)
    return body


def result(sender: str, task_id: str, state: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "task-result",
        "id": f"m-{uuid.uuid4().hex}",
        "sentAt": now(),
        "senderRole": "partner",
        "senderId": sender,
        "taskId": task_id,
        "status": {"state": state, "stateChangedAt": now()},
    }
    body.update(extra)
    return body


def chat(sender: str, words: str, role: str = "leader", **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "message",
        "id": f"m-{uuid.uuid4().hex}",
        "sentAt": now(),
        "senderRole": role,
        "senderId": sender,
        "dataItems": text(words),
    }
    body.update(extra)
    return body
