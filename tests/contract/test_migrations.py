"""The Alembic migrations and the SQLModel tables describe the same schema."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import app.tables  # noqa: F401
from app.agents.search_tables import include_object
from app.db import make_engine
from app.schema import migrate


async def _diff(url: str) -> list[Any]:
    engine = make_engine(url)

    def compare(connection: Any) -> list[Any]:
        opts = {"compare_type": True, "include_object": include_object}
        context = MigrationContext.configure(connection, opts=opts)
        return list(compare_metadata(context, SQLModel.metadata))

    async with engine.connect() as conn:
        diff = await conn.run_sync(compare)
    await engine.dispose()
    return diff


async def test_migrated_database_matches_models(database_url: str) -> None:
    """On the suite's database: SQLite here, PostgreSQL when AGENTHUB_TEST_DATABASE_URL says so."""
    assert await _diff(database_url) == []


def test_fresh_sqlite_migrates_up_down_up(tmp_path: Any) -> None:
    import asyncio

    from alembic import command

    from app.schema import alembic_config

    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    migrate(url)
    command.downgrade(alembic_config(url), "base")
    migrate(url)
    assert asyncio.run(_diff(url)) == []


def test_a_downgrade_leaves_values_the_older_code_reads(tmp_path: Any) -> None:
    """0010 down: a hybrid receiver becomes p2p, a trigger a conclusion cancelled one that
    timed out (the code before it knows neither)."""
    import sqlite3

    from alembic import command

    from app.schema import alembic_config

    path = tmp_path / "down.db"
    url = f"sqlite+aiosqlite:///{path}"
    migrate(url)
    rows: dict[str, dict[str, str]] = {
        "agents": {},
        "sessions": {},
        "groups": {},
        "session_participants": {"mode": "hybrid"},
        "group_triggers": {"outcome": "cancelled"},
    }
    with sqlite3.connect(path) as db:  # every key and reference "x": one of each
        for table, values in rows.items():
            columns = db.execute(f"PRAGMA table_info({table})").fetchall()
            row = {c[1]: values.get(c[1], "x") for c in columns if c[3] or c[1] in values}
            marks = ", ".join("?" * len(row))
            db.execute(
                f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})", list(row.values())
            )
    command.downgrade(alembic_config(url), "0009")
    with sqlite3.connect(path) as db:
        found = [
            db.execute("SELECT mode FROM session_participants").fetchone(),
            db.execute("SELECT outcome FROM group_triggers").fetchone(),
        ]
    assert found == [("p2p",), ("timeout",)]


def test_0011_labels_the_agents_registered_before_with_their_implicit_aip(tmp_path: Any) -> None:
    """An agent with an endpoint, registered before protocol bindings, is found by
    ``protocol=aip``; one without is not; down again, no label of kind protocol is left."""
    import sqlite3

    from alembic import command

    from app.schema import alembic_config

    path = tmp_path / "labels.db"
    url = f"sqlite+aiosqlite:///{path}"
    command.upgrade(alembic_config(url), "0010")
    with sqlite3.connect(path) as db:
        columns = [c[1] for c in db.execute("PRAGMA table_info(agents)") if c[3]]
        for agent_id, endpoint in (("a", "http://a.test/aip"), ("b", None)):
            row = {c: "x" for c in columns} | {"id": agent_id, "endpoint_url": endpoint}
            marks = ", ".join("?" * len(row))
            db.execute(
                f"INSERT INTO agents ({', '.join(row)}) VALUES ({marks})", list(row.values())
            )
    migrate(url)
    with sqlite3.connect(path) as db:
        labels = db.execute("SELECT agent_id, kind, value FROM agent_labels").fetchall()
        protocols = db.execute("SELECT protocols FROM agents ORDER BY id").fetchall()
    assert labels == [("a", "protocol", "aip")]
    assert protocols == [("[]",), ("[]",)]
    command.downgrade(alembic_config(url), "0010")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM agent_labels").fetchone() == (0,)
