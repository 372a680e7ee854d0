"""What every benchmark needs: servers as processes on loopback, percentiles, the machine."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).parents[1]
OPERATOR_TOKEN = "bench-operator"  # noqa: S105 (a throwaway hub's operator token)


def publish_report(report: dict[str, Any], path: Path | None) -> int:
    """Print a benchmark's JSON report, and write it to ``path`` too when given; exit 0."""
    text = json.dumps(report, indent=2)
    print(text)
    if path is not None:
        path.write_text(text + "\n")
    return 0


# the hub's admission limits are for agents in the wild; a benchmark measures the stack
UNLIMITED = {
    "AGENTHUB_POSTS_PER_SECOND_PER_AGENT": "0",
    "AGENTHUB_STREAM_OPENS_PER_SECOND": "0",
    "AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS": "0",
    "AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT": "0",
    "AGENTHUB_MAX_STREAMS_PER_AGENT": "100000",
    "AGENTHUB_MAX_STREAMS": "100000",
    "AGENTHUB_CERTIFICATES_PER_HOUR_PER_AGENT": "0",
    "AGENTHUB_MAX_POST_BYTES": "1048576",  # bench.limits posts 900 KB messages
}


def message_body(sender: str, text: str) -> bytes:
    """A group message as the benchmarks post it: a fresh id, one text item."""
    return orjson.dumps(
        {
            "type": "message",
            "id": f"m-{uuid.uuid4().hex}",
            "sentAt": "2026-12-01T00:00:00Z",
            "senderRole": "leader",
            "senderId": sender,
            "dataItems": [{"type": "text", "text": text}],
        }
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def process_cpu_s(pid: int) -> float:
    """A process's CPU seconds so far (``/proc/<pid>/stat``: user + system, every thread)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # fields 14, 15


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def healthz_p99(url: str, seconds: float) -> float:
    """p99 of /healthz over ``seconds`` of back-to-back requests, in ms."""
    samples: list[float] = []
    async with httpx.AsyncClient(timeout=10) as http:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            await http.get(f"{url}/healthz")
            samples.append((time.perf_counter() - started) * 1000)
    return round(percentile(samples, 99), 2)


def raise_fd_limit(wanted: int) -> int:
    """Raise this process's open-file limit (inherited by what it starts) towards ``wanted``,
    as far as the hard limit allows; returns the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def percentile(samples: Sequence[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100); 0 for no samples."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.release()}"
    )


def start(
    args: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | str = ROOT
) -> subprocess.Popen[bytes]:
    """``python <args>`` as its own process, with the repository importable."""
    return subprocess.Popen(  # noqa: S603 (our own interpreter and modules)
        [sys.executable, *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=str(cwd),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a terminal's Ctrl-C reaches the benchmark, which stops it
    )


def uvicorn_args(app: str, port: int) -> list[str]:
    """One uvicorn worker, as the hub runs (uvloop and httptools when installed)."""
    return ["-m", "uvicorn", app, "--port", str(port), "--log-level", "warning"]


ASGI_SERVERS = ("uvicorn", "granian", "hypercorn")


def asgi_server_args(server: str, app: str, port: int) -> list[str]:
    """One worker of ``server`` (uvloop for all three) serving ``app`` on loopback."""
    if server == "granian":
        return [
            *("-m", "granian", "--interface", "asgi", "--host", "127.0.0.1"),
            *("--port", str(port), "--loop", "uvloop", "--log-level", "warning", app),
        ]
    if server == "hypercorn":
        return [
            *("-m", "hypercorn", "--bind", f"127.0.0.1:{port}", "--worker-class", "uvloop"),
            *("--log-level", "warning", app),
        ]
    return uvicorn_args(app, port)


def hub_args(port: int) -> list[str]:
    return ["-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"]


async def wait_up(url: str, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Until ``url`` answers below 500; fails at once if the process exits."""
    async with httpx.AsyncClient(timeout=1) as http:
        for _ in range(int(seconds * 10)):
            if proc.poll() is not None:
                raise RuntimeError(f"the server for {url} exited with {proc.returncode}")
            try:
                if (await http.get(url)).status_code < 500:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up in {seconds} s")


async def wait_port(port: int, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Until something accepts TCP connections on 127.0.0.1:``port`` (a server whose
    answers need a client certificate); fails at once if the process exits."""
    for _ in range(int(seconds * 10)):
        if proc.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {proc.returncode}")
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def stop(*procs: subprocess.Popen[bytes]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextmanager
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """A list to put started processes in; every one is stopped on the way out."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        stop(*started)


async def create_pg_database(admin_url: str) -> tuple[str, str]:
    """A fresh database next to ``admin_url``'s: (its name, its asyncpg URL)."""
    import asyncpg  # type: ignore[import-untyped]

    name = f"agenthub_bench_{os.getpid()}_{int(time.time())}"
    conn = await asyncpg.connect(admin_url.replace("+asyncpg", ""))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = admin_url.rsplit("/", 1)[0]
    if base.startswith("postgresql://"):
        base = base.replace("postgresql://", "postgresql+asyncpg://", 1)
    return name, f"{base}/{name}"


async def drop_pg_database(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url.replace("+asyncpg", ""))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    finally:
        await conn.close()


def count_statements(on_statement: Callable[[str], None]) -> None:
    """Call ``on_statement`` with each statement any engine of this process runs from now on,
    one call for each execution the code asks for (an ``executemany`` is one): what goes
    through SQLAlchemy (its ``before_cursor_execute`` event, on ``Engine`` itself) and what
    the hub runs at SQLite's driver (``app.prepared``, through ``InlineSqlite``). Benchmark
    code only: the product never counts its statements."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from app.db import InlineSqlite

    def before_cursor_execute(*args: Any) -> None:
        on_statement(args[2])

    event.listen(Engine, "before_cursor_execute", before_cursor_execute)
    rows, run_many = InlineSqlite.rows, InlineSqlite.run_many

    async def counted_rows(self: InlineSqlite, sql: str, args: Any) -> Any:
        on_statement(sql)
        return await rows(self, sql, args)

    async def counted_run_many(self: InlineSqlite, sql: str, many: Any) -> None:
        on_statement(sql)
        await run_many(self, sql, many)

    InlineSqlite.rows = counted_rows  # type: ignore[method-assign]
    InlineSqlite.run_many = counted_run_many  # type: ignore[method-assign]
