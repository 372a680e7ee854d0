"""The p2p benchmark's hub: ``python -m app.cli serve``, with its SQL statements counted.

    AGENTHUB_BENCH_SQL_COUNTS=/tmp/counts python -m bench.p2p.hub serve --port 8000

Before the hub starts, ``bench.harness.count_statements`` (SQLAlchemy's
``before_cursor_execute`` on ``Engine`` itself, and the driver calls of ``app.prepared``) and a
``commit`` listener go in, so every engine the hub makes counts what it sends to its store.
The counts live in a small file mapped into memory (:class:`SqlCounts`): the driver reads
them at any moment without asking the hub anything. Benchmark code only: the product never
counts its statements.
"""

from __future__ import annotations

import mmap
import os
import struct
import sys
from pathlib import Path
from typing import Any

COUNTS_ENV = "AGENTHUB_BENCH_SQL_COUNTS"
KINDS = ("statements", "select", "insert", "update", "delete", "savepoint", "other", "commits")
_SLOT = struct.Struct("<Q")
SIZE = _SLOT.size * len(KINDS)


class SqlCounts:
    """Counters of ``KINDS``, one unsigned 64-bit slot each, in a file both sides map."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.exists() or path.stat().st_size != SIZE:
            path.write_bytes(bytes(SIZE))
        self._file = path.open("r+b")
        self._map = mmap.mmap(self._file.fileno(), SIZE)

    def add(self, kind: str) -> None:
        offset = KINDS.index(kind) * _SLOT.size
        (value,) = _SLOT.unpack_from(self._map, offset)
        _SLOT.pack_into(self._map, offset, value + 1)

    def read(self) -> dict[str, int]:
        return {
            kind: _SLOT.unpack_from(self._map, i * _SLOT.size)[0] for i, kind in enumerate(KINDS)
        }

    def close(self) -> None:
        self._map.close()
        self._file.close()


def _kind(statement: str) -> str:
    word = statement.lstrip()[:10].split(None, 1)
    first = word[0].lower() if word else ""
    if first in ("select", "insert", "update", "delete"):
        return first
    if first in ("savepoint", "release", "rollback"):  # SAVEPOINT / RELEASE / ROLLBACK TO
        return "savepoint"
    if first == "with":  # a CTE: the hub's are reads
        return "select"
    return "other"


def install(counts: SqlCounts) -> None:
    """Count every statement and commit of every engine from now on: what SQLAlchemy runs
    and what the hub runs at SQLite's driver (``bench.harness.count_statements``)."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from bench.harness import count_statements

    def statement(sql: str) -> None:
        counts.add("statements")
        counts.add(_kind(sql))

    def commit(_conn: Any) -> None:
        counts.add("commits")

    count_statements(statement)
    event.listen(Engine, "commit", commit)


def main(argv: list[str] | None = None) -> None:
    path = os.environ.get(COUNTS_ENV)
    if path:
        install(SqlCounts(Path(path)))
    from app.cli import main as hub

    hub(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
