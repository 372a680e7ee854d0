"""``python -m bench.ingest.statements``: one of the writer's statements, three ways.

The writer's reads of a batch's standing (``app.records.ingest``: the senders' keys, their
memberships, the message ids they used: the first and last in one statement) on a store
migrated to the hub's schema, each run ``--runs`` times on one connection, by:

- **sqlalchemy**: ``AsyncConnection.execute`` of the Core statement, as the writer ran them
  until ``app.prepared`` (SQLAlchemy's compiled cache, execution context, ``IN`` expansion,
  bind and result processing, result object, async adaptation);
- **prepared**: ``app.prepared.rows``, what the writer runs now (SQLAlchemy's compilation,
  cached a size of ``IN`` list; the driver's call);
- **sqlite3**: the rendered SQL on the plain ``sqlite3`` connection underneath: SQLite alone.

Reported: this process's CPU a statement, in microseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.db import make_engine
from app.prepared import Prepared, rows
from app.records import record
from app.schema import migrate
from bench.harness import machine, publish_report

STATEMENTS: dict[str, tuple[Prepared, dict[str, Any]]] = {
    "keys_and_used_ids": (
        record._KEYS_AND_USED_IDS,
        {"senders": ["a", "b"], "ids": ["m1", "m2", "m3"]},
    ),
    "memberships": (record._MEMBERSHIPS, {"groups": ["g"], "senders": ["a", "b"]}),
}


def _cpu_us(seconds: float, runs: int) -> float:
    return round(seconds / runs * 1e6, 1)


async def run(runs: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-statements-"))
    url = f"sqlite+aiosqlite:///{folder / 'hub.db'}"
    await asyncio.to_thread(migrate, url)
    engine = make_engine(url)
    report: dict[str, Any] = {"machine": machine(), "runs": runs, "cpu_us_per_statement": {}}
    try:
        async with engine.begin() as conn:
            for name, (prepared, params) in STATEMENTS.items():
                compiled = prepared.on(conn.dialect, tuple(sorted(params)))
                rendered = compiled.rendered(params)
                raw = conn.sync_connection.connection.driver_connection._conn  # type: ignore[union-attr]
                args = rendered.args(params)
                timings: dict[str, float] = {}
                for way in ("sqlalchemy", "prepared", "sqlite3"):
                    for _ in range(max(10, runs // 10)):  # warm: every cache filled
                        await _once(way, conn, prepared, params, raw, rendered.sql, args)
                    start = time.process_time()
                    for _ in range(runs):
                        await _once(way, conn, prepared, params, raw, rendered.sql, args)
                    timings[way] = _cpu_us(time.process_time() - start, runs)
                report["cpu_us_per_statement"][name] = timings
    finally:
        await engine.dispose()
    return report


async def _once(
    way: str, conn: Any, prepared: Prepared, params: dict[str, Any], raw: Any, sql: str, args: Any
) -> None:
    if way == "sqlalchemy":
        list(await conn.execute(prepared.statement, params))
    elif way == "prepared":
        await rows(conn, prepared, params)
    else:
        raw.execute(sql, args).fetchall()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest.statements", description=__doc__)
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    return publish_report(asyncio.run(run(args.runs)), args.json)


if __name__ == "__main__":
    sys.exit(main())
