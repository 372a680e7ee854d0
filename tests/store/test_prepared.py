"""The write path's statements run at SQLite's driver (``app.prepared``) read and write what
SQLAlchemy would, raise what SQLAlchemy would, and do it without SQLAlchemy's execution."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    event,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import make_engine
from app.models.types import UTCDateTime
from app.prepared import Prepared, begin_writing, end_writing, rows, run, run_many

metadata = MetaData()
things = Table(
    "things",
    metadata,
    Column("id", String, primary_key=True),
    Column("scope", String, primary_key=True),
    Column("kind", String, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("data", JSON, nullable=False),
    Column("flag", Boolean, nullable=False, default=False),
    Column("n", Integer, nullable=False, default=0),
)
INSERT = Prepared(insert(things))
BY_KEYS = Prepared(
    select(things)
    .where(tuple_(things.c.id, things.c.scope).in_(bindparam("keys", expanding=True)))
    .order_by(things.c.id)
)
OF_KINDS = Prepared(  # a list of the caller's, and a literal list of the statement's own
    select(things.c.id, things.c.flag)
    .where(things.c.id.in_(bindparam("ids", expanding=True)), things.c.kind.in_(["a", "b"]))
    .order_by(things.c.id)
)
BUMP = Prepared(
    update(things)
    .where(things.c.id == bindparam("t_id"), things.c.kind != "frozen")
    .values(n=things.c.n + bindparam("by"))
    .returning(things.c.n)
)
SET_AT = Prepared(update(things).where(things.c.id == bindparam("t_id")).values(at=bindparam("at")))

AT = datetime(2026, 12, 3, 12, 0, 0, 123456, tzinfo=UTC)


@pytest.fixture
async def engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    yield engine
    await engine.dispose()


def _row(id: str, kind: str = "a", **more: Any) -> dict[str, Any]:
    return {"id": id, "scope": "s", "kind": kind, "at": AT, "data": {"id": id, "n": [1]}, **more}


async def test_what_the_driver_writes_sqlalchemy_reads_back_and_the_other_way(
    engine: AsyncEngine,
) -> None:
    statements: list[str] = []
    event.listen(engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    async with engine.begin() as conn:
        # a constant default (flag) filled in, as SQLAlchemy fills it
        await run_many(conn, INSERT, [_row("t1"), _row("t2", kind="b"), _row("t3", kind="c")])
        await run(conn, INSERT, _row("t4", flag=True, n=5))
    assert statements == []  # none of them went through SQLAlchemy's execution
    async with engine.connect() as conn:
        by_sqlalchemy = [tuple(r) for r in await conn.execute(select(things).order_by(things.c.id))]
        keys = [("t1", "s"), ("t4", "s"), ("t9", "s")]
        assert await rows(conn, BY_KEYS, {"keys": keys}) == [by_sqlalchemy[0], by_sqlalchemy[3]]
    t1, _, _, t4 = by_sqlalchemy
    assert t1 == ("t1", "s", "a", AT, {"id": "t1", "n": [1]}, False, 0)
    assert t4[5:] == (True, 5)
    assert t1[3].tzinfo is not None  # the column type's own conversion, both ways


async def test_in_lists_of_every_size_and_literals_of_the_statements_own(
    engine: AsyncEngine,
) -> None:
    async with engine.begin() as conn:
        await run_many(conn, INSERT, [_row("t1"), _row("t2", kind="b"), _row("t3", kind="c")])
    async with engine.connect() as conn:
        assert await rows(conn, OF_KINDS, {"ids": ["t1", "t2", "t3"]}) == [
            ("t1", False),
            ("t2", False),
        ]
        assert await rows(conn, OF_KINDS, {"ids": ["t3"]}) == []
        assert await rows(conn, OF_KINDS, {"ids": []}) == []
        assert await rows(conn, OF_KINDS, {"ids": ["t2"]}) == [("t2", False)]


async def test_update_returning_and_a_set_clause_from_the_parameters(engine: AsyncEngine) -> None:
    later = AT + timedelta(hours=1)
    async with engine.begin() as conn:
        await run_many(conn, INSERT, [_row("t1"), _row("t2", kind="frozen")])
        assert await rows(conn, BUMP, {"t_id": "t1", "by": 3}) == [(3,)]
        assert await rows(conn, BUMP, {"t_id": "t2", "by": 3}) == []  # the literal holds
        await run_many(conn, SET_AT, [{"t_id": "t1", "at": later}, {"t_id": "t2", "at": later}])
    async with engine.connect() as conn:
        got = [tuple(r) for r in await conn.execute(select(things.c.n, things.c.at))]
    assert sorted(got) == [(0, later), (3, later)]


async def test_a_constraint_is_sqlalchemys_integrity_error_and_the_transaction_goes_on(
    engine: AsyncEngine,
) -> None:
    async with engine.connect() as conn:
        assert await begin_writing(conn)
        await run(conn, INSERT, _row("t1"))
        with pytest.raises(IntegrityError):
            await run(conn, INSERT, _row("t1"))
        await run(conn, INSERT, _row("t2"))
        assert not conn.in_transaction()  # SQLAlchemy was not told: the driver's COMMIT ends it
        await end_writing(conn, commit=True)
    async with engine.connect() as conn:
        assert await rows(conn, OF_KINDS, {"ids": ["t1", "t2"]}) == [("t1", False), ("t2", False)]


@pytest.mark.parametrize("commit", [True, False])
async def test_a_statement_sqlalchemy_runs_inside_the_writers_transaction_ends_with_it(
    engine: AsyncEngine, commit: bool
) -> None:
    """The full path's ORM statements run inside the transaction ``begin_writing`` began:
    committed, or rolled back, with what the driver wrote."""
    async with engine.connect() as conn:
        assert await begin_writing(conn)
        await run(conn, INSERT, _row("t1"))
        await conn.execute(things.insert().values(_row("t2")))
        assert conn.in_transaction()
        await run(conn, INSERT, _row("t3"))
        await end_writing(conn, commit=commit)
        assert not conn.in_transaction()
    async with engine.connect() as conn:
        stored = await rows(conn, OF_KINDS, {"ids": ["t1", "t2", "t3"]})
    assert stored == ([("t1", False), ("t2", False), ("t3", False)] if commit else [])


async def test_a_rolled_back_transaction_keeps_nothing_the_driver_wrote(
    engine: AsyncEngine,
) -> None:
    async with engine.connect() as conn:
        await begin_writing(conn)
        await run(conn, INSERT, _row("t1"))
        await end_writing(conn, commit=False)
    async with engine.connect() as conn:
        assert await rows(conn, OF_KINDS, {"ids": ["t1"]}) == []


def _write_path_statements() -> list[tuple[str, Prepared]]:
    import importlib
    import pkgutil

    import app

    found = []
    for module in pkgutil.walk_packages(app.__path__, "app."):
        if module.name.startswith("app.demo"):
            continue
        names = vars(importlib.import_module(module.name))
        found += [(f"{module.name}.{n}", v) for n, v in names.items() if isinstance(v, Prepared)]
    return found


async def test_no_statement_of_the_write_path_scans_a_table(tmp_path: Path) -> None:
    """Each runs once a batch or more: a scan would cost more with every row the hub holds
    (a list of (task, session) row values made SQLite scan every task: 4.4 ms a batch at
    11,000 tasks)."""
    import sqlite3

    from sqlmodel import SQLModel

    import app.tables  # noqa: F401 (the tables)

    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.create_all)
    dialect = engine.dialect
    await engine.dispose()
    store = sqlite3.connect(tmp_path / "hub.db")
    statements = _write_path_statements()
    assert len(statements) >= 10
    for name, prepared in statements:
        compiled = prepared.statement.compile(dialect=dialect)  # type: ignore[attr-defined]
        params = {
            key: [1, 2, 3] if bind.expanding else 1
            for bind, key in compiled.bind_names.items()
            if bind.required
        }
        sql = prepared.on(dialect, tuple(sorted(params))).rendered(params).sql
        if sql.lstrip().upper().startswith("INSERT"):
            continue
        plan = [
            row[3] for row in store.execute(f"EXPLAIN QUERY PLAN {sql}", [None] * sql.count("?"))
        ]
        assert not [step for step in plan if step.startswith("SCAN")], (name, plan)
    store.close()
