"""The Alembic migrations and the SQLModel tables describe the same schema."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import app.models  # noqa: F401
from app.db import make_engine
from app.models.search import include_object
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
