"""The async engine and session factory; SQLite gets WAL and sane pragmas."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel import Session as SyncSession
from sqlmodel.ext.asyncio.session import AsyncSession

SQLITE_BUSY_TIMEOUT_MS = 5_000


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    if url.startswith("sqlite"):
        engine = create_async_engine(
            url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **kwargs
        )
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **kwargs)


SessionFactory = async_sessionmaker[AsyncSession]


class StoreSession(SyncSession):
    """The hub's ORM sessions: their commits publish the events staged in them to the
    broker in their ``info`` (``services.events``); no other session's commit does."""


def make_session_factory(engine: AsyncEngine, *, broker: Any = None) -> SessionFactory:
    """Sessions whose commits publish staged events to ``broker`` (see services/events)."""
    info = {"broker": broker} if broker is not None else {}
    return async_sessionmaker(
        engine,
        class_=AsyncSession,
        sync_session_class=StoreSession,
        expire_on_commit=False,
        info=info,
    )


@asynccontextmanager
async def session_scope(factory: SessionFactory) -> AsyncIterator[AsyncSession]:
    async with factory() as session:
        yield session
