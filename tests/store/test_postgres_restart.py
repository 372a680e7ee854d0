"""PostgreSQL restarted under load: while it is away every client gets 503
with ``Retry-After`` (never a 500), and once it is back the same hub process serves again;
every acknowledged post is stored once.

The test runs a PostgreSQL of its own (Debian's binaries, ``initdb`` into a temporary
directory, on a free loopback port), so stopping it touches nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.faults import a_group, post_with_failover, stored_messages
from tests.support.live import free_port
from tests.support.replicas import Replica
from tests.support.system import require

WAIT_SECONDS = 60.0
AWAY_SECONDS = 3.0


class Postgres:
    """A PostgreSQL cluster in a directory of its own; as root, run as the ``postgres`` user
    (PostgreSQL refuses root)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        initdb = found[-1] if found else require("initdb", "postgresql")
        self.bin = Path(initdb).parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="agenthub-pg-"))
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command], check=True, capture_output=True, timeout=WAIT_SECONDS
        )

    def init(self) -> None:
        data = str(self.dir / "data")
        self._run(str(self.bin / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-N")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.dir / "data"),
            "-l",
            str(self.dir / "log"),
            "-o",
            options,
            "-w",
            "-t",
            str(int(WAIT_SECONDS)),
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", mode, "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    server = Postgres()
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.remove()


@pytest.fixture
async def replica(postgres: Postgres, tmp_path: Path) -> AsyncIterator[Replica]:
    hub = Replica(
        database_url=postgres.url,
        broker_url="memory://",
        key_file=tmp_path / "signing-key.pem",
        workdir=tmp_path,
        settings={"AGENTHUB_DATABASE_POOL_TIMEOUT_SECONDS": "2"},
    )
    await hub.start()
    try:
        yield hub
    finally:
        hub.stop()  # and its log shows no unhandled error


async def test_postgres_restarted_under_load(postgres: Postgres, replica: Replica) -> None:
    leader, members, group_id = await a_group(replica.url)
    posters = [leader, *members]
    acknowledged: list[dict[str, Any]] = []
    refusals: list[httpx.Response] = []
    stop = asyncio.Event()

    async def speak(kit: Any) -> None:
        """Post until told to stop; a 503 is counted and the post tried again (same id)."""
        i = 0
        while not stop.is_set():
            before = len(refusals)
            acknowledged.append(await post_with_failover([kit], group_id, f"post {i}", refusals))
            i += 1
            if len(refusals) > before:
                await asyncio.sleep(0.05)

    speaking = asyncio.gather(*(speak(kit) for kit in posters))
    while len(acknowledged) < 20:
        await asyncio.sleep(0.05)
    postgres.stop("fast")  # every connection the hub holds is cut
    await asyncio.sleep(AWAY_SECONDS)
    away = len(refusals)
    postgres.start()
    acknowledged_at_restart = len(acknowledged)
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while len(acknowledged) < acknowledged_at_restart + 20:  # served again, same process
        assert asyncio.get_running_loop().time() < deadline, "the hub did not recover"
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.wait_for(speaking, WAIT_SECONDS)

    assert away > 0, "nothing was refused while PostgreSQL was away"
    for response in refusals:
        assert response.status_code == 503
        assert response.headers["content-type"].startswith("application/problem+json")
        assert int(response.headers["retry-after"]) >= 1
    stored = await stored_messages(leader, group_id)
    assert sorted(m["id"] for m in stored) == sorted(m["id"] for m in acknowledged)
    seqs = [m["seq"] for m in stored]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "a gap in the group's seqs"
    ready = httpx.get(f"{replica.url}/readyz", timeout=10)
    assert ready.status_code == 200
    for kit in posters:
        await kit.aclose()
