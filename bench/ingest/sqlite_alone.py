"""``python -m bench.ingest.sqlite_alone``: SQLite alone, the part of the writer we do not own.

The rows the writer benchmark (``bench.ingest.writer``) stores, the same kit-shaped calls'
messages with the bodies the hub keeps, inserted into a store migrated to the hub's schema
(its indexes included) by plain synchronous ``sqlite3`` in WAL with ``synchronous=NORMAL`` and
the hub's checkpoint interval, as many rows a transaction as the writer's batches hold.
Reported: this process's CPU a row, the commit's share included, and the rows/s that makes
on one core.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from agenthub.protocol.messages import parse_message
from app.db import WAL_AUTOCHECKPOINT_PAGES
from app.records.stored import Placement, stored_body, stored_row
from app.schema import migrate
from bench.harness import machine, publish_report
from bench.ingest.writer import call_records

INSERT = (
    "INSERT INTO messages (message_id, sender_id, session_id, group_id, task_id, type, seq, "
    "body, received_at, waiting) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _rows(calls: int) -> list[tuple[Any, ...]]:
    leader, partner = "1.2.156.3088.1.AGH.LEADER", "1.2.156.3088.1.AGH.PARTNER"
    rows = []
    for n in range(calls):
        task_id = f"t-{n}-{uuid.uuid4().hex[:8]}"
        for _, wire in call_records(leader, partner, task_id):
            message = parse_message(wire)
            at = Placement("s-bench", datetime.now(UTC), task_id=task_id)
            row = stored_row(message, stored_body(message, at), at)
            rows.append(
                (
                    row["message_id"],
                    row["sender_id"],
                    row["session_id"],
                    row["group_id"],
                    row["task_id"],
                    row["type"],
                    row["seq"],
                    orjson.dumps(row["body"]).decode(),
                    row["received_at"].isoformat(),
                    row["waiting"],
                )
            )
    return rows


def run(calls: int, per_transaction: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-sqlite-"))
    path = folder / "hub.db"
    migrate(f"sqlite+aiosqlite:///{path}")
    rows = _rows(calls)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")  # as the hub's
    db.execute("PRAGMA foreign_keys=OFF")  # the rows' session is not in this store
    cpu, commit = time.process_time(), 0.0
    for at in range(0, len(rows), per_transaction):
        db.execute("BEGIN IMMEDIATE")
        db.executemany(INSERT, rows[at : at + per_transaction])
        started = time.process_time()
        db.execute("COMMIT")
        commit += time.process_time() - started
    cpu = time.process_time() - cpu
    indexes = db.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"
    ).fetchone()[0]
    return {
        "machine": machine(),
        "rows": len(rows),
        "rows_per_transaction": per_transaction,
        "indexes_on_messages": indexes,
        "mean_body_bytes": round(sum(len(r[7]) for r in rows) / len(rows)),
        "cpu_us_per_row": round(cpu / len(rows) * 1e6, 1),
        "commit_cpu_us_per_row": round(commit / len(rows) * 1e6, 1),
        "rows_per_cpu_second": round(len(rows) / cpu),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.ingest.sqlite_alone", description=__doc__
    )
    parser.add_argument("--calls", type=int, default=600)
    parser.add_argument("--per-transaction", type=int, default=31)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    return publish_report(run(args.calls, args.per_transaction), args.json)


if __name__ == "__main__":
    raise SystemExit(main())
