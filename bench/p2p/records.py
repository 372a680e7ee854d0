"""What the p2p benchmark reads about the hub's records: the hub process's CPU time and SQL
statements (:class:`HubMeter`), the kit partners' recorders (:func:`partner_recorder`), and
whether the hub still holds a task short of its last record (:func:`tasks_short_of_records`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

from bench.harness import process_cpu_s
from bench.p2p.hub import KINDS, SqlCounts

# a kit task still waiting for a record: started (``submitted``) or moved by the partner but
# not yet to the state its last record puts it in
SHORT_STATES = ("submitted", "accepted", "working")
CONTROL_SECONDS = 180.0


@dataclass(frozen=True)
class Reading:
    """The hub at one moment: wall clock, the process's CPU seconds, its SQL counts; and the
    CPU seconds of the caller (this process) and of the target's server process."""

    at: float
    cpu_s: float
    sql: dict[str, int]
    caller_cpu_s: float = 0.0
    server_cpu_s: float = 0.0


class HubMeter:
    """Reads the hub process's CPU time (``/proc/<pid>/stat``: user + system, every thread)
    and the statement counts its engine listener keeps (``bench.p2p.hub``)."""

    def __init__(self, pid: int, sql_counts: Path) -> None:
        self.pid = pid
        self.counts = SqlCounts(sql_counts)
        self.server_pid: int | None = None  # the target's server, while its phases run

    def read(self) -> Reading:
        server = process_cpu_s(self.server_pid) if self.server_pid else 0.0
        return Reading(
            time.perf_counter(),
            process_cpu_s(self.pid),
            self.counts.read(),
            time.process_time(),
            server,
        )

    def close(self) -> None:
        self.counts.close()


def cpu_per_call(start: Reading, end: Reading, calls: int) -> dict[str, float]:
    """CPU ms a call between two readings: the caller (this process: the kit's leader and
    its recorder, or the baseline's client), the target's server (the kit partner and its
    recorder, the bare endpoint, the a2a-sdk agent) and the hub."""
    per = max(calls, 1) / 1000
    return {
        "caller": round((end.caller_cpu_s - start.caller_cpu_s) / per, 3),
        "server": round((end.server_cpu_s - start.server_cpu_s) / per, 3),
        "hub": round((end.cpu_s - start.cpu_s) / per, 3),
    }


def spent(start: Reading, end: Reading, records: int) -> dict[str, Any]:
    """The hub's CPU and statements between two readings, in all and per record."""
    cpu_ms = (end.cpu_s - start.cpu_s) * 1000
    sql = {kind: end.sql[kind] - start.sql[kind] for kind in KINDS}
    per = max(records, 1)
    return {
        "records": records,
        "hub_cpu_ms": round(cpu_ms, 1),
        "hub_cpu_ms_per_record": round(cpu_ms / per, 3) if records else None,
        "sql": sql,
        "statements_per_record": round(sql["statements"] / per, 2) if records else None,
        "commits_per_record": round(sql["commits"] / per, 3) if records else None,
    }


async def partner_recorder(port: int, command: str = "stats") -> dict[str, Any]:
    """A kit partner's recorder (``bench.p2p.partner --control-port``): ``stats`` now, or
    ``flush``: once every record it queued reached the hub."""
    async with asyncio.timeout(CONTROL_SECONDS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(command.encode() + b"\n")
            await writer.drain()
            answer: dict[str, Any] = orjson.loads(await reader.readline())
        finally:
            writer.close()
            await writer.wait_closed()
    return answer


async def tasks_short_of_records(http: httpx.AsyncClient, **where: str) -> bool:
    """Whether the hub holds a task (of ``sessionId``, or with ``agentId`` in it) in a state
    short of its last record; one cheap operator query (``limit=1``) per such state."""
    for state in SHORT_STATES:
        response = await http.get(
            "/v1/operator/tasks", params={**where, "state": state, "limit": 1}
        )
        response.raise_for_status()
        if response.json()["items"]:
            return True
    return False
