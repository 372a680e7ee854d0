"""The async engine and session factory; SQLite gets WAL and sane pragmas."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite
import orjson
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool
from sqlmodel.ext.asyncio.session import AsyncSession

SQLITE_BUSY_TIMEOUT_MS = 5_000
_SQLITE_BUSY = 5  # the primary result code (extended codes carry it in their low byte)
_SQLITE_BUSY_SNAPSHOT = 517  # a stale WAL read snapshot: waiting does not help
_BUSY_WAITS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)  # then 0.05 s each, to the timeout
WAL_AUTOCHECKPOINT_PAGES = 10_000
"""SQLite copies the WAL back into the database once it holds this many pages (40 MiB at 4 KiB
pages; SQLite's default is 1,000). A checkpoint runs inside the COMMIT that crosses the mark,
on the writer's thread, and copies each page changed since the last one once: a task's row,
its session's index pages and the tables' last pages change many times over 1,000 pages of
a busy record. ``python -m bench.ingest.writer --calls 15000``: CPU a record 0.137-0.147 ->
0.124-0.129 ms, records/s +10-25 %."""


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=0")  # waits for the lock on the loop: InlineSqlite
    cursor.close()


class InlineSqlite(aiosqlite.Connection):
    """aiosqlite's connection, its calls run on the event loop's thread.

    aiosqlite hands every call to a thread of its own and back: 120-160 us a round trip on
    a 2-core machine against ~2 us for the call itself, and SQLAlchemy makes three or four
    a statement, so a ten-statement write took ~9 ms of waiting however idle the machine.
    The hub's statements are small and indexed; run inline they cost what SQLite costs.

    What does not run inline is a wait for the write lock: SQLite's busy handler would
    sleep on the loop's thread while the connection holding the lock waits for that loop
    to go on (a deadlock until the timeout). So the connection's own busy timeout is 0
    and a call refused as busy is tried again after an ``asyncio.sleep``, up to
    ``SQLITE_BUSY_TIMEOUT_MS``, as SQLite's busy handler would have. aiosqlite's thread
    still opens and closes the connection.
    """

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        waited, tries = 0.0, 0
        while True:
            try:
                return fn(*args, **kwargs)
            except sqlite3.OperationalError as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                busy = code is not None and code & 0xFF == _SQLITE_BUSY
                if not busy or code == _SQLITE_BUSY_SNAPSHOT:
                    raise
                if waited * 1000 >= SQLITE_BUSY_TIMEOUT_MS:
                    raise
            pause = _BUSY_WAITS[min(tries, len(_BUSY_WAITS) - 1)]
            tries += 1
            waited += pause
            await asyncio.sleep(pause)

    async def rows(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Run one statement and fetch all its rows, in one call (``app.prepared``)."""
        connection = self._conn
        return await self._execute(lambda: connection.execute(sql, args).fetchall())  # type: ignore[no-any-return]

    async def run_many(self, sql: str, many: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each parameter set, in one call (``app.prepared``)."""
        connection = self._conn
        await self._execute(connection.executemany, sql, many)


def _inline_sqlite(url: str) -> Callable[[], Any]:
    database = make_url(url).database or ":memory:"

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(database, timeout=0, check_same_thread=False)

    async def connect() -> aiosqlite.Connection:
        connection = InlineSqlite(connector, iter_chunk_size=64)
        connection._thread.daemon = True  # as SQLAlchemy's aiosqlite dialect sets it
        return await connection

    return connect


def _json_dumps(value: Any) -> str:
    """JSON columns are written by orjson (the message bodies are the hub's biggest
    writes), or by ``json`` for what orjson does not take (an integer past 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def _json_loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what only ``json`` wrote: NaN, say
        return json.loads(text)


class TimedPool(AsyncAdaptedQueuePool):
    """SQLAlchemy's pool for asyncio, telling ``on_wait`` how long each checkout took (a
    wait for a free connection, or a new one made): the pool waits an operator watches."""

    on_wait: Callable[[float], None] | None = None
    on_timeout: Callable[[], None] | None = None

    def connect(self) -> Any:
        observe = self.on_wait
        if observe is None:
            return super().connect()
        start = time.perf_counter()
        try:
            return super().connect()
        except PoolTimeout:
            if self.on_timeout is not None:
                self.on_timeout()
            raise
        finally:
            observe(time.perf_counter() - start)

    def recreate(self) -> Any:
        made = super().recreate()  # this class again (SQLAlchemy makes ``self.__class__``)
        assert isinstance(made, TimedPool)
        made.on_wait, made.on_timeout = self.on_wait, self.on_timeout
        return made


# SQLAlchemy names a pool's logger after its class: this one's would fall under the hub's
# ``app`` logger, at INFO, and say "Pool disposed" where SQLAlchemy's own stay quiet
logging.getLogger(f"{__name__}.TimedPool").setLevel(logging.WARNING)


def time_pool_waits(
    engine: AsyncEngine, observe: Callable[[float], None], timed_out: Callable[[], None]
) -> None:
    """Tell ``observe`` each checkout's time, and ``timed_out`` of each that found no
    connection free in time (an in-memory SQLite has no pool to wait on)."""
    if isinstance(engine.pool, TimedPool):
        engine.pool.on_wait, engine.pool.on_timeout = observe, timed_out


def pool_in_use(engine: AsyncEngine) -> int:
    """Connections of ``engine``'s pool checked out now."""
    pool = engine.pool
    return pool.checkedout() if isinstance(pool, TimedPool) else 0


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", _json_loads)
    if ":memory:" not in url and "mode=memory" not in url:
        kwargs.setdefault("poolclass", TimedPool)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, async_creator=_inline_sqlite(url), **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **kwargs)


SessionFactory = async_sessionmaker[AsyncSession]
