"""The record's hot reads use the index made for them on SQLite, which has no statistics to
choose by: a task's messages by (session, task), never a scan of the whole session (on a
long-lived session that grew each refold's cost, and the soak's p99 with it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.dialects import sqlite
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db import make_engine
from app.groups.events import group_backlog
from app.tasks import store as tasks


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
            assert "ix_messages_session_task_pk" in plan, plan
            assert "ix_messages_session_pk" not in plan, plan
    await engine.dispose()


async def test_a_groups_backlog_is_read_by_its_partial_index(tmp_path: Path) -> None:
    """ix_messages_group_seq holds group messages only (group_id IS NOT NULL): SQLite uses
    it only where the query implies that; the backlog a stream resumes from does."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'plans.db'}")
    seen: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        seen.append((statement, params))

    async with engine.begin() as conn:
        await conn.run_sync(SQLModel.metadata.create_all)
    event.listen(engine.sync_engine, "before_cursor_execute", capture)
    async with AsyncSession(engine) as db:
        await group_backlog(db, "g", 0, 10)
    event.remove(engine.sync_engine, "before_cursor_execute", capture)
    (messages,) = [(sql, params) for sql, params in seen if "FROM messages" in sql]
    async with engine.connect() as conn:
        raw = await conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {messages[0]}", messages[1])
        plan = " ".join(str(row[-1]) for row in raw)
    assert "ix_messages_group_seq" in plan, plan
    await engine.dispose()
