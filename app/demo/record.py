"""What the demo's transcript reads back from the hub's store while it runs: when each step
of each task is on record, and the names that stand for ids.

A line of the story that narrates a task's step (``taskId`` and ``record``: a command such as
``start`` or a status such as ``accepted``) is placed where the hub's record puts that step,
not where its line happened to arrive from one of the processes. A group message's place is
the hub's own time for it (the order of its sequence numbers); a point-to-point message,
recorded later by its sender's recorder, is placed at the time it says it was sent.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

# an agent's id (1.2.156.3088.1.AGH.1.ZC2WBU6ZP.…): numbers, then a part with a letter
AIC = re.compile(r"\b\d+(?:\.\d+)+\.[A-Za-z]\w*(?:\.\w+)*")
# the hub's and the kit's ids, with the word before them ("waiting for task task-…")
HUB_ID = re.compile(r"(?:\b(?:task|group|session) )?\b(?:grp|task|ses|cmd|msg|sub)-[0-9a-f]{8,}\b")
SOME = {
    "grp": "a group",
    "task": "a task",
    "ses": "a session",
    "cmd": "a command",
    "msg": "a message",
    "sub": "a subscription",
}


@dataclass
class HubRecord:
    times: dict[tuple[str, str], float] = field(default_factory=dict)  # (task, step) -> epoch
    names: dict[str, str] = field(default_factory=dict)  # an id -> what the reader calls it
    texts: dict[str, str] = field(default_factory=dict)  # a task -> its start command's text

    def placed(self, event: dict[str, Any]) -> float:
        """Where a line goes: the first moment its step is on record, by the hub or by the
        agent that said it, whichever is earlier."""
        said = float(event.get("t", 0.0))
        step = str(event.get("record"))
        ids = [event["taskId"]] if event.get("taskId") else list(event.get("taskIds") or [])
        found = [self.times[(i, step)] for i in ids if (i, step) in self.times]
        return min([said, *found])

    def named(self, text: str) -> str:
        """``text`` with every id in it replaced by the name it stands for."""

        def name(match: re.Match[str]) -> str:
            token = match[0].rsplit(" ", 1)[-1]
            return self.names.get(token) or SOME.get(token.split("-")[0], "an agent")

        return HUB_ID.sub(name, AIC.sub(name, text))


def _epoch(stamp: str) -> float:
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _first_text(body: dict[str, Any]) -> str:
    items = body.get("dataItems") or []
    return next((str(i["text"]) for i in items if i.get("type") == "text"), "")


def read_record(db_file: Path) -> HubRecord:
    """The hub's record so far (the hub may still be writing: SQLite lets us read beside it);
    an empty record when there is no store yet."""
    record = HubRecord()
    if not db_file.exists():
        return record
    try:
        conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:  # a store being made: the lines keep the order they were said in
        return record
    try:
        record.names.update(conn.execute("SELECT id, name FROM agents"))
        record.names.update(conn.execute("SELECT id, name FROM groups"))
        rows = conn.execute(
            "SELECT task_id, group_id IS NOT NULL, received_at, body FROM messages "
            "WHERE task_id IS NOT NULL ORDER BY pk"
        ).fetchall()
    except sqlite3.Error:  # the hub has not made its tables yet
        return record
    finally:
        conn.close()
    starts: dict[str, dict[str, Any]] = {}
    for task_id, in_group, received_at, raw in rows:
        body = orjson.loads(raw)
        step = body.get("command") or (body.get("status") or {}).get("state")
        when = _epoch(str(received_at)) if in_group else _epoch(body.get("sentAt") or received_at)
        if step and (task_id, step) not in record.times:
            record.times[(task_id, step)] = when
        if step == "start":
            starts.setdefault(task_id, body)
    for task_id, body in starts.items():
        partner = record.names.get(body.get("partnerId", ""), "a partner")
        text = record.texts[task_id] = record.named(_first_text(body))
        called = f" “{text}”" if text else ""
        record.names[task_id] = f"the {partner}'s task{called}"
    return record
