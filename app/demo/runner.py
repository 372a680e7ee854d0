"""Start the hub and the team as processes, narrate them, and clean every one up."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from app.demo.summary import Summary, read_summary

ROOT = Path(__file__).parents[2]
TOKEN = "demo-operator-token"  # noqa: S105 (a throwaway hub that lives as long as the demo)
ROLES = ("factorial", "root", "researcher", "writer", "analyst", "charts")
Narrate = Callable[[dict[str, Any]], None]


@dataclass
class DemoResult:
    events: list[dict[str, Any]] = field(default_factory=list)
    summary: Summary | None = None
    leader_exit: int | None = None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class Team:
    """The processes of one demo run; all of them are stopped on the way out."""

    def __init__(self, workdir: Path, narrate: Narrate, result: DemoResult) -> None:
        self.workdir = workdir
        self.narrate = narrate
        self.result = result
        self.procs: list[asyncio.subprocess.Process] = []
        self.readers: list[asyncio.Task[None]] = []
        self.hub_url = f"http://127.0.0.1:{_free_port()}"

    async def spawn(self, who: str, *args: str) -> asyncio.subprocess.Process:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "AGENTHUB_URL": self.hub_url,
            "AGENTHUB_TOKEN": TOKEN,
            "AGENTHUB_OPERATOR_TOKEN": TOKEN,
            # the demo's own hub: never a store, broker or key configured for a real one
            "AGENTHUB_DATABASE_URL": f"sqlite+aiosqlite:///{self.workdir / 'agenthub.db'}",
            "AGENTHUB_BROKER_URL": "memory://",
            "AGENTHUB_SIGNING_KEY_FILE": str(self.workdir / "hub-key.pem"),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *args,
            cwd=self.workdir if who == "hub" else ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches the demo only; it stops them in order
        )
        self.procs.append(proc)
        self.readers.append(asyncio.create_task(self._read(who, proc)))
        return proc

    async def _read(self, who: str, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip()
            try:
                event = orjson.loads(line)
            except orjson.JSONDecodeError:
                event = {"t": time.time(), "who": who, "what": "log", "line": line}
            if not isinstance(event, dict):
                continue
            self.result.events.append(event)
            self.narrate(event)

    async def start_hub(self) -> None:
        port = self.hub_url.rsplit(":", 1)[1]
        await self.spawn("hub", "-m", "app.cli", "serve", "--port", port, "--log-level", "warning")
        async with httpx.AsyncClient(timeout=1) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{self.hub_url}/readyz")).status_code == 200:
                        self.narrate(
                            {"t": time.time(), "who": "hub", "what": "ready", "url": self.hub_url}
                        )
                        return
                if self.procs[0].returncode is not None:
                    break
                await asyncio.sleep(0.1)
        raise RuntimeError("the hub did not start")

    async def until(self, done: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            if any(p.returncode is not None for p in self.procs):
                raise RuntimeError(f"a process of the demo exited while waiting for {what}")
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.terminate()
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        for reader in self.readers:
            reader.cancel()


async def run_demo(narrate: Narrate, *, timeout_seconds: float = 180) -> DemoResult:
    """The whole demo; every process it started is stopped when it returns or is cancelled."""
    result = DemoResult()
    with tempfile.TemporaryDirectory(prefix="agenthub-demo-") as tmp:
        team = Team(Path(tmp), narrate, result)
        try:
            await team.start_hub()
            for role in ROLES:
                await team.spawn(
                    role, "-m", "examples.team.worker", "--role", role, "--port", str(_free_port())
                )

            def registered() -> bool:
                names = {e["who"] for e in result.events if e.get("what") == "registered"}
                return names >= set(ROLES)

            await team.until(registered, 60, "the team to register")
            leader = await team.spawn(
                "leader", "-m", "examples.team.leader", "--port", str(_free_port())
            )
            try:
                result.leader_exit = await asyncio.wait_for(leader.wait(), timeout_seconds)
            except TimeoutError:
                narrate(
                    {"t": time.time(), "who": "demo", "what": "timed out", "after": timeout_seconds}
                )
            await asyncio.sleep(0.5)  # the last records and narration lines
        finally:
            await team.stop()
        result.summary = read_summary(Path(tmp) / "agenthub.db")
    return result
