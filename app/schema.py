"""The store's schema: the Alembic migrations, where they live, and how far a store has come.

The migrations sit at the top of the repository (``migrations/``) and inside the hub's wheel
(``app/migrations``, put there by ``hatch_build.py``), so ``agenthub migrate`` works from any
directory after a plain install.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import make_engine

_PACKAGED = Path(__file__).resolve().parent / "migrations"
MIGRATIONS_DIR = (
    _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[1] / "migrations"
)


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


@cache
def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert head is not None, f"no migrations in {MIGRATIONS_DIR}"
    return head


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The store's revision, or None for a store that was never migrated."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


@dataclass(frozen=True)
class SchemaState:
    current: str | None
    head: str

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    def describe(self) -> str:
        if self.at_head:
            return f"schema at head ({self.head})"
        found = f"at {self.current}" if self.current else "empty (never migrated)"
        return f"schema is {found}, not at head {self.head}: run `agenthub migrate`"


async def schema_state(engine: AsyncEngine) -> SchemaState:
    return SchemaState(await current_revision(engine), head_revision())


def pending_revisions(current: str | None) -> list[str]:
    """The revisions ``migrate`` would apply to a store at ``current``, oldest first."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    steps = script.iterate_revisions(head_revision(), current)
    return [step.revision for step in reversed(list(steps))]


def migrate(database_url: str, revision: str = "head") -> list[str]:
    """Bring the store to ``revision``; return the revisions applied (oldest first)."""
    before = asyncio.run(_revision_of(database_url))
    command.upgrade(alembic_config(database_url), revision)
    return pending_revisions(before) if revision == "head" else [revision]


async def _revision_of(database_url: str) -> str | None:
    engine = make_engine(database_url)
    try:
        return await current_revision(engine)
    finally:
        await engine.dispose()
