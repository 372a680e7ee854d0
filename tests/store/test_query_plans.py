"""The record's hot reads use the index made for them on SQLite, which has no statistics to
choose by: a task's messages by (session, task), never a scan of the whole session (on a
long-lived session that grew each refold's cost, and the soak's p99 with it)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from sqlalchemy.dialects import sqlite

from app.db import make_engine
from app.models import SQLModel
from app.services import tasks


async def test_a_tasks_messages_are_found_by_session_and_task(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'plans.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.create_all)
        for statement in (tasks._STORED, tasks._WAITING):
            compiled = statement.params(of_session="s", of_task="t").compile(
                dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}
            )
            sql = str(compiled).replace("__[POSTCOMPILE_", "").replace("]", "")
            plan = " ".join(
                str(row[-1]) for row in await conn.execute(text(f"EXPLAIN QUERY PLAN {sql}"))
            )
            assert "ix_messages_session_task_pk" in plan or "task_waiting" in plan, plan
            assert "ix_messages_session_pk" not in plan, plan
    await engine.dispose()
