"""The writer's connection (``core.unit_of_work.WriterConnection``): on SQLite one kept
from batch to batch, and a new one after a batch failed on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from app.core.unit_of_work import UnitOfWork, WriterConnection
from app.db import make_engine


async def test_the_writer_keeps_its_connection_and_lets_a_failed_one_go(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'hub.db'}")
    writer = WriterConnection(engine)
    try:
        async with writer.connection() as conn, UnitOfWork.begin(conn, None) as work:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))
            await work.commit()
        async with writer.connection() as again, UnitOfWork.begin(again, None) as work:
            assert again is conn  # kept: no checkout a batch
            await again.execute(text("INSERT INTO t VALUES (1)"))
            # left without its commit: rolled back, and the connection stays
        async with writer.connection() as same:
            assert same is conn and not same.in_transaction()
            assert (await same.execute(text("SELECT count(*) FROM t"))).scalar() == 0
            raw = await same.get_raw_connection()
            raw.driver_connection._conn.close()  # type: ignore[union-attr]  # broken underneath
        with pytest.raises(SQLAlchemyError):
            async with writer.connection() as broken, UnitOfWork.begin(broken, None):
                await broken.execute(text("INSERT INTO t VALUES (2)"))
        async with writer.connection() as fresh, UnitOfWork.begin(fresh, None) as work:
            assert fresh is not conn  # the failed one let go, a new one taken
            await fresh.execute(text("INSERT INTO t VALUES (3)"))
            await work.commit()
            assert (await fresh.execute(text("SELECT n FROM t"))).scalars().all() == [3]
    finally:
        await writer.close()
        await engine.dispose()
