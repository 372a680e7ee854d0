"""What each pytest-xdist worker has of its own, so that workers running side by side never meet.

- A band of loopback ports, which ``tests.support.live`` takes its ports from (``port_band``).
- A PostgreSQL database, ``<base>_gw0`` beside the one AGENTHUB_TEST_DATABASE_URL names (made
  when the worker starts, dropped when it ends): the suite empties its tables after each test,
  which would pull rows from under another worker's test.
- A redis-server, when AGENTHUB_TEST_REDIS_URL is set (which then only says "use Redis"):
  started on a port of the band, stopped at the end. Redis pub/sub channels are global across a
  server's db indexes, so two workers on one server each received the other's events.

The two URLs are set in the worker's own environment, so every reader of them (the fixtures,
the hubs tests run as processes) follows without knowing about workers.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable

from sqlalchemy.engine import make_url

from tests.support.replicas import Redis


def isolate(worker: str) -> Callable[[], None]:
    """Give ``worker`` its own database and Redis (where the suite is asked to use them);
    return what undoes it."""
    undo: list[Callable[[], None]] = []
    try:
        base = os.environ.get("AGENTHUB_TEST_DATABASE_URL", "")
        if base.startswith("postgresql"):
            name = f"{make_url(base).database}_{worker}"
            drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
            # first the one a worker of a killed run left behind
            _execute(base, drop, f'CREATE DATABASE "{name}"')
            undo.append(lambda: _execute(base, drop))
            own = make_url(base).set(database=name).render_as_string(hide_password=False)
            os.environ["AGENTHUB_TEST_DATABASE_URL"] = own
        if os.environ.get("AGENTHUB_TEST_REDIS_URL"):
            redis = _worker_redis(worker)
            undo.append(redis.stop)
            os.environ["AGENTHUB_TEST_REDIS_URL"] = redis.url
    except BaseException:
        _run_all(undo)
        raise
    return lambda: _run_all(undo)


def _run_all(undo: list[Callable[[], None]]) -> None:
    for step in reversed(undo):
        step()


def _execute(url: str, *statements: str) -> None:
    """Run ``statements`` one by one (CREATE DATABASE takes no transaction) on ``url``."""
    import asyncpg

    async def run() -> None:
        dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        conn = await asyncpg.connect(dsn, timeout=30)
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(run())


def _worker_redis(worker: str) -> Redis:
    if shutil.which("redis-server") is None:
        raise RuntimeError(
            f"AGENTHUB_TEST_REDIS_URL is set, and xdist worker {worker} runs a redis-server of "
            "its own (workers sharing one see each other's pub/sub messages): "
            "apt-get install redis-server, or run pytest without -n"
        )
    redis = Redis()
    asyncio.run(redis.start())
    return redis
