"""The recorder's optional durable outbox: records not yet at the hub, in a small SQLite
file, so an agent that is killed or restarted loses none of them.

A record is written here when it is queued and deleted once the hub has it, or has refused
it for good. One given up on a transient failure (the hub was away past the retry deadline)
stays, and goes again the next time the recorder resumes. The hub stores a record once
whatever number of times it arrives (it is idempotent on the sender and the message id), so
a record sent just before a kill and again after it is still one record.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    task_id TEXT,
    route TEXT NOT NULL,
    body BLOB NOT NULL
)
"""


@dataclass(frozen=True)
class Pending:
    id: int
    session_id: str
    task_id: str | None
    route: str
    body: Mapping[str, Any]


class Outbox:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        # autocommit: each write is its own transaction, made durable before queuing goes on
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def add(self, session_id: str, task_id: str | None, route: str, body: Mapping[str, Any]) -> int:
        cursor = self._db.execute(
            "INSERT INTO records (session_id, task_id, route, body) VALUES (?, ?, ?, ?)",
            (session_id, task_id, route, orjson.dumps(dict(body))),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def settle(self, ids: Iterable[int]) -> None:
        self._db.executemany("DELETE FROM records WHERE id = ?", [(i,) for i in ids])

    def pending(self) -> list[Pending]:
        rows = self._db.execute(
            "SELECT id, session_id, task_id, route, body FROM records ORDER BY id"
        ).fetchall()
        return [Pending(i, s, t, r, orjson.loads(b)) for i, s, t, r, b in rows]

    def close(self) -> None:
        self._db.close()
