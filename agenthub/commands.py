"""Commands a leader sends, made with a fresh id and the time they are sent."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from agenthub.protocol.messages import TaskCommand


def text_items(text: str | None) -> list[dict[str, Any]] | None:
    """A text as the one data item of a message (none for no text)."""
    return [{"type": "text", "text": text}] if text else None


def leader_command(
    name: str,
    *,
    sender_id: str,
    session_id: str,
    task_id: str | None,
    partner_id: str | None = None,
    data_items: list[dict[str, Any]] | None = None,
    params: dict[str, Any] | None = None,
    **extra: Any,
) -> TaskCommand:
    """A leader's command, sent now with a fresh id (the A2A bridge's, on its caller's
    behalf, too)."""
    return TaskCommand.model_validate(
        {
            "id": f"cmd-{uuid.uuid4().hex}",
            "sentAt": datetime.now(UTC),
            "senderRole": "leader",
            "senderId": sender_id,
            "sessionId": session_id,
            "command": name,
            "taskId": task_id,
            "partnerId": partner_id,
            "dataItems": data_items,
            "commandParams": params,
            **extra,
        }
    )
