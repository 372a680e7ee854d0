"""SQLite calls run on the event loop's thread (``app.db.InlineSqlite``): a wait for the
write lock is an ``asyncio.sleep``, never a block of the loop, and never a deadlock with a
connection of the same loop that holds the lock."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import WAL_AUTOCHECKPOINT_PAGES, make_engine


@pytest.fixture
async def engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (n INTEGER)"))
    yield engine
    await engine.dispose()


async def _ticks_while(work: asyncio.Future[object] | asyncio.Task[object]) -> int:
    """How many 1 ms sleeps the loop ran while ``work`` was going on."""
    ticks = 0
    while not work.done():
        await asyncio.sleep(0.001)
        ticks += 1
    return ticks


async def test_a_writer_waits_for_a_lock_held_on_its_own_loop(engine: AsyncEngine) -> None:
    holding, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with engine.connect() as conn:
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
            await conn.execute(text("INSERT INTO t VALUES (1)"))
            holding.set()
            await release.wait()  # the loop goes on while this transaction holds the lock
            await conn.commit()

    async def writer() -> list[int]:
        await holding.wait()
        async with engine.connect() as conn:
            await conn.exec_driver_sql("BEGIN IMMEDIATE")  # busy until the holder commits
            await conn.execute(text("INSERT INTO t VALUES (2)"))
            await conn.commit()
            return [n for (n,) in await conn.execute(text("SELECT n FROM t ORDER BY n"))]

    held = asyncio.create_task(holder())
    wrote = asyncio.create_task(writer())
    await holding.wait()
    await asyncio.sleep(0.2)
    assert not wrote.done()  # it waits for the lock ...
    release.set()  # ... which the holder can give back: the loop was not blocked
    assert await asyncio.wait_for(wrote, 60) == [1, 2]
    await held


async def test_a_lock_held_by_another_process_is_waited_for_without_blocking_the_loop(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    hold = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE'); print('held', flush=True)\n"
        "time.sleep(float(sys.argv[2])); c.execute('COMMIT')\n"
    )
    other = subprocess.Popen(
        [sys.executable, "-c", hold, str(tmp_path / "store.db"), "0.5"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout is not None
        assert (await asyncio.to_thread(other.stdout.readline)).strip() == "held"

        async def write() -> None:
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (3)"))

        started = time.monotonic()
        wrote = asyncio.ensure_future(write())
        ticks = await _ticks_while(wrote)
        await wrote
        waited = time.monotonic() - started
        # the loop ran on while the write waited (a loop blocked by SQLite's own busy
        # handler ran 2 ticks in those 0.5 s)
        assert waited >= 0.2 and ticks >= 5
    finally:
        other.wait(10)


def test_the_store_is_the_same_file_sqlite_sees(tmp_path: Path) -> None:
    async def write() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))
            await conn.execute(text("INSERT INTO t VALUES (7)"))
        await engine.dispose()

    asyncio.run(write())
    with sqlite3.connect(tmp_path / "store.db") as conn:
        assert conn.execute("SELECT n FROM t").fetchall() == [(7,)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_every_connection_has_the_hub_s_pragmas(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        got = {
            name: (await conn.execute(text(f"PRAGMA {name}"))).scalar_one()
            for name in ("journal_mode", "synchronous", "foreign_keys", "wal_autocheckpoint")
        }
    assert got == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "wal_autocheckpoint": WAL_AUTOCHECKPOINT_PAGES,
    }
