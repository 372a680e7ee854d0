"""Who owns a transaction: the writer's unit of work (one transaction of ``Ingest``, from
BEGIN to COMMIT), and ``transaction``/``commit`` for every other write (the request path's
session, ``deps.get_session``, and the background jobs'). Services flush, never commit.

It holds the transaction's connection (the batch path runs its statements there, at the
driver: ``app.prepared``), the ``Outbox`` of what the batch will publish, the tasks whose
moves may have ended them (their triggers are looked up after COMMIT), and, only when a
record takes the full path, an ORM session on that same connection for the services that
write one record at a time. ``commit`` is the one place a batch commits; ``publish`` hands
the outbox to the broker, in the order staged, once it has (``Ingest._write`` answers the
batch's callers first); a unit of work left without ``commit`` rolls back and publishes
nothing.

On SQLite the transaction starts ``BEGIN IMMEDIATE`` (``begin_writing``): the writer holds
the write lock from its first read, so what it read is what it writes against.

Any other write is an ORM session's: ``transaction`` commits it when its block ends without
an error and then publishes what it staged (``commit``); an error lets the session go, rolled
back, its staged events with it. A request's session is one transaction for its route
(``deps.get_session``), committed before the answer is sent; a route that acts on what it
committed (ending streams after a deregistration) commits first itself.

What a transaction will do once it ends is kept by its unit of work, never by its callers:
the events it staged (``stage``, ``tell_operator``), the agents it saw (``saw_agent``), the
tasks its moves may have ended (``task_may_have_ended``) and the tasks it holds as last
written (``held_tasks``). An ORM session's are in its ``SessionWork``, which only this
module reads.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from app.broker import Broker, Delivery
from app.core.outbox import Outbox
from app.db import SessionFactory
from app.prepared import begin_writing, end_writing

TaskKey = tuple[str, str]  # (task id, session id)
NoteSeen = Callable[[AsyncConnection, Iterable[str]], Awaitable[None]]
"""Writes when agents were seen, in the caller's transaction (``agents.last_seen``)."""

logger = logging.getLogger(__name__)


@dataclass(eq=False)
class SessionWork:
    """What an ORM session's transaction will do once it ends."""

    outbox: Outbox = field(default_factory=Outbox)  # published after its COMMIT
    seen: set[str] = field(default_factory=set)  # agents to note seen, after it ends
    ended: set[TaskKey] = field(default_factory=set)  # tasks a move may have ended
    tasks: dict[TaskKey, object] = field(default_factory=dict)  # as last written


class HubSession(AsyncSession):
    """The hub's ORM session: its ``work`` is what its transaction will do when it ends,
    published to ``broker`` (or, the agents it saw, written by ``note_seen``) by whoever
    commits (``commit``, ``transaction``, ``UnitOfWork.commit``)."""

    def __init__(
        self,
        *args: Any,
        broker: Broker | None = None,
        note_seen: NoteSeen | None = None,
        work: SessionWork | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.broker = broker
        self.note_seen = note_seen
        self.work = work or SessionWork()


def make_session_factory(
    engine: AsyncEngine, *, broker: Broker | None = None, note_seen: NoteSeen | None = None
) -> SessionFactory:
    """The hub's sessions (``HubSession``), knowing its ``broker`` and how the agents they
    saw are written."""
    return async_sessionmaker(
        engine, class_=HubSession, expire_on_commit=False, broker=broker, note_seen=note_seen
    )


def _hub(db: AsyncSession) -> HubSession:
    assert isinstance(db, HubSession), "the hub's sessions come from its session factory"
    return db


def stage(db: AsyncSession, channel: str, delivery: Delivery) -> None:
    """Deliver on ``channel`` once the session's transaction commits."""
    _hub(db).work.outbox.stage(channel, delivery)


def tell_operator(db: AsyncSession, kind: str, data: dict[str, Any]) -> None:
    """Tell the operator's stream, once the session's transaction commits."""
    _hub(db).work.outbox.tell_operator(kind, data)


def tell_operator_message(db: AsyncSession, body: dict[str, Any]) -> None:
    """A message stored as ``body``, for the operator's stream."""
    _hub(db).work.outbox.tell_operator_message(body)


def saw_agent(db: AsyncSession, agent_id: str) -> None:
    """Note the agent seen, once the session's transaction has ended (``write_seen``)."""
    _hub(db).work.seen.add(agent_id)


def task_may_have_ended(db: AsyncSession, key: TaskKey) -> None:
    """A move of the task may have ended it: its triggers are looked up after COMMIT."""
    _hub(db).work.ended.add(key)


def held_tasks(db: AsyncSession) -> dict[TaskKey, Any]:
    """The tasks this transaction holds as last written (``tasks.store``), by key."""
    return _hub(db).work.tasks


def publish_staged(db: AsyncSession) -> None:
    """The session's transaction committed: hand what it staged to the hub's broker."""
    session = _hub(db)
    session.work.outbox.publish(session.broker)


async def commit(db: AsyncSession) -> None:
    """Commit the session's transaction, publish what it staged, then note the agents it
    saw (``touch_agent``, a transaction of its own)."""
    await db.commit()
    publish_staged(db)
    await write_seen(db)


async def write_seen(session: AsyncSession) -> None:
    """What ``touch_agent`` noted, written and committed in a transaction of its own, after
    the session's own ended (committed or rolled back: a refused request still shows its
    agent alive). Not at the request's start: that would hold SQLite's write lock through
    the whole route. Not inside the request's transaction: on PostgreSQL it would lock the
    caller's row after the rows the route locked, the writer's order reversed (a deadlock).
    Presence is best effort: a store that refuses it now is told at debug level, and the
    agent's next request writes it."""
    hub = _hub(session)
    if not hub.work.seen:
        return
    seen, hub.work.seen = hub.work.seen, set()
    if hub.note_seen is None:
        return
    try:
        await hub.note_seen(await session.connection(), seen)
        await session.commit()
    except Exception as exc:
        await session.rollback()
        logger.debug("could not note %d agents seen: %s", len(seen), exc)


@asynccontextmanager
async def transaction(factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """An ORM session whose transaction is this block: committed (and published) when the
    block ends, rolled back with everything it staged when the block raises (the agents it
    saw are noted either way)."""
    async with factory() as db:
        try:
            yield db
        except Exception:
            with contextlib.suppress(Exception):  # the block's own error is the one raised
                await db.rollback()
                await write_seen(db)
            raise
        await commit(db)


@dataclass(eq=False)
class UnitOfWork:
    conn: AsyncConnection
    broker: Broker | None
    locked: bool  # SQLite's write lock taken at BEGIN: nothing else writes until COMMIT
    outbox: Outbox = field(default_factory=Outbox)
    ended: set[TaskKey] = field(default_factory=set)  # tasks a move may have ended
    committed: bool = False
    _session: AsyncSession | None = None

    @classmethod
    @asynccontextmanager
    async def begin(cls, conn: AsyncConnection, broker: Broker | None) -> AsyncIterator[UnitOfWork]:
        """A transaction on ``conn``; rolled back unless ``commit`` ran."""
        locked = await begin_writing(conn)
        work = cls(conn, broker, locked)
        try:
            yield work
        finally:
            if work._session is not None:
                await work._session.close()
            if not work.committed:
                try:
                    await end_writing(conn, commit=False)
                except Exception as exc:  # the batch's own error is the one raised
                    logger.debug("rolling back a batch failed too: %s", exc)

    async def session(self) -> AsyncSession:
        """An ORM session in this transaction, for the full path's services (made on first
        use): what they stage goes to this outbox, the tasks they may end to ``ended``."""
        if self._session is None:
            work = SessionWork(outbox=self.outbox, ended=self.ended)
            self._session = HubSession(
                bind=self.conn, expire_on_commit=False, broker=self.broker, work=work
            )
        return self._session

    def forget_tasks(self) -> None:
        """The batch path moved tasks: the full path reads them again, not its copies."""
        if self._session is not None:
            _hub(self._session).work.tasks.clear()

    async def commit(self) -> None:
        """COMMIT: what it staged may be published now (``publish``)."""
        if self._session is not None:
            await self._session.flush()
        await end_writing(self.conn, commit=True)
        self.committed = True

    def publish(self) -> None:
        """Hand what the committed transaction staged since the last ``publish`` to the
        broker, in order."""
        assert self.committed, "nothing is published before its COMMIT"
        self.outbox.publish(self.broker)


class WriterConnection:
    """The writer's connection for its batches. On SQLite the writer keeps one for as long
    as it works (a checkout from the pool and its return cost ~40 us a batch, as much as
    SQLite's COMMIT), and lets it go when a batch fails on it; elsewhere it takes one from
    the pool a batch, which checks it is alive (a database restarted meanwhile)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._held: AsyncConnection | None = None

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        if self.engine.dialect.name != "sqlite":
            async with self.engine.connect() as conn:
                yield conn
            return
        if self._held is None:
            self._held = await self.engine.connect()
        try:
            yield self._held
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                await held.close()
