"""What a test that hangs is waiting for, printed while it still hangs.

pytest-timeout fails a test after ``timeout`` seconds (pyproject); its traceback shows only
where the main thread was, which for an asyncio test is the event loop's ``select``. So a
watchdog prints, shortly before, every thread's stack, every pending asyncio task's stack and
(on PostgreSQL) who waits for which lock. CI's log then says what the hang was.
"""

from __future__ import annotations

import asyncio
import faulthandler
import os
import tempfile
import threading
from collections.abc import Callable
from typing import Any

DUMP_AT = 0.8
"""The dump comes at this share of pytest-timeout's limit (pyproject's 600 s: at 480 s, well
after the slowest test's 140 s); AGENTHUB_TEST_HANG_DUMP_SECONDS says when instead."""

_LOCK_WAITS = """
SELECT pid, state, wait_event_type, wait_event, now() - xact_start AS in_transaction,
       pg_blocking_pids(pid) AS blocked_by, left(query, 200) AS query
FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()
ORDER BY xact_start NULLS LAST
"""


def _thread_stacks() -> str:
    with tempfile.TemporaryFile(mode="w+") as out:
        faulthandler.dump_traceback(out, all_threads=True)
        out.seek(0)
        return out.read()


def _task_stacks() -> str:
    lines: list[str] = []
    for task in list(asyncio.tasks._all_tasks):  # every loop's, readable from this thread
        if task.done():
            continue
        lines.append(f"-- {task!r}")
        for frame in task.get_stack():
            code = frame.f_code
            lines.append(f"     {code.co_filename}:{frame.f_lineno} in {code.co_name}")
    return "\n".join(lines)


def _postgres_activity() -> str:
    url = os.environ.get("AGENTHUB_TEST_DATABASE_URL", "")
    if not url.startswith("postgresql"):
        return ""

    async def read() -> str:
        import asyncpg

        dsn = "postgresql://" + url.split("://", 1)[1]
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            rows = await conn.fetch(_LOCK_WAITS, timeout=10)
        finally:
            await conn.close()
        return "\n".join(str(dict(row)) for row in rows)

    try:
        return asyncio.run(read())
    except Exception as exc:  # a diagnostic: say why it is missing, never fail the dump
        return f"(could not read pg_stat_activity: {exc!r})"


def dump(nodeid: str, seconds: float, write: Callable[[str], Any]) -> None:
    write(f"\n\n==== {nodeid} still runs after {seconds:g} s: what it waits for ====\n")
    write("-- threads\n" + _thread_stacks())
    write("-- asyncio tasks\n" + _task_stacks() + "\n")
    activity = _postgres_activity()
    if activity:
        write("-- PostgreSQL sessions of the test database\n" + activity + "\n")
    write("==== end of the dump ====\n")


def watchdog(
    nodeid: str, timeout: float | None, write: Callable[[str], Any]
) -> threading.Timer | None:
    """A timer that dumps before a test ``timeout`` seconds long fails; None without one."""
    override = os.environ.get("AGENTHUB_TEST_HANG_DUMP_SECONDS")
    seconds = float(override) if override else DUMP_AT * timeout if timeout else None
    if seconds is None:
        return None
    timer = threading.Timer(seconds, dump, args=(nodeid, seconds, write))
    timer.daemon = True
    timer.start()
    return timer
