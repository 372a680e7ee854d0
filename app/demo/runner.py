"""Start the hub and the team as processes, narrate them, and clean every one up."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from app.demo.summary import Summary, read_summary
from app.demo.teller import Storyteller
from app.demo.traces import TraceFile, otel_env

# where ``app`` was imported from (a checkout or site-packages): the children import it too
IMPORT_ROOT = Path(__file__).resolve().parents[2]
LOG_TAIL_LINES = 30
TOKEN = "demo-operator-token"  # noqa: S105 (a throwaway hub that lives as long as the demo)
ROLES = ("factorial", "root", "researcher", "writer", "analyst", "charts")
Narrate = Callable[[dict[str, Any]], None]


class DemoFailed(RuntimeError):
    """A process of the demo failed; ``output`` is the end of what it printed."""

    def __init__(self, message: str, *, who: str | None = None, output: list[str] | None = None):
        super().__init__(message)
        self.who = who
        self.output = output or []


@dataclass
class DemoResult:
    events: list[dict[str, Any]] = field(default_factory=list)
    summary: Summary | None = None
    leader_exit: int | None = None
    leader_output: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class Team:
    """The processes of one demo run; all of them are stopped on the way out."""

    def __init__(
        self,
        workdir: Path,
        narrate: Narrate,
        result: DemoResult,
        traces_to: str | None = None,
        port: int | None = None,
    ) -> None:
        self.workdir = workdir
        self.traces_to = traces_to  # an OTLP/HTTP endpoint every process exports to
        self.narrate = narrate
        self.result = result
        self.procs: list[asyncio.subprocess.Process] = []
        self.names: dict[int, str] = {}
        self.tails: dict[str, deque[str]] = {}
        self.readers: list[asyncio.Task[None]] = []
        self.hub_url = f"http://127.0.0.1:{port or _free_port()}"

    async def spawn(self, who: str, *args: str) -> asyncio.subprocess.Process:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(IMPORT_ROOT), os.environ.get("PYTHONPATH", "")]),
            "AGENTHUB_URL": self.hub_url,
            "AGENTHUB_TOKEN": TOKEN,
            "AGENTHUB_OPERATOR_TOKEN": TOKEN,
            # the demo's own hub: never a store, broker or key configured for a real one
            "AGENTHUB_DATABASE_URL": f"sqlite+aiosqlite:///{self.workdir / 'agenthub.db'}",
            "AGENTHUB_BROKER_URL": "memory://",
            "AGENTHUB_SIGNING_KEY_FILE": str(self.workdir / "hub-key.pem"),
        }
        if self.traces_to is not None:
            env.update(otel_env(self.traces_to, who))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *args,
            cwd=self.workdir,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches the demo only; it stops them in order
        )
        self.procs.append(proc)
        self.names[proc.pid] = who
        self.tails[who] = deque(maxlen=LOG_TAIL_LINES)
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
                self.tails[who].append(line)
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
                    await self.readers[0]
                    raise self.failure(self.procs[0], "the hub exited while starting")
                await asyncio.sleep(0.1)
        raise self.failure(self.procs[0], "the hub did not answer /readyz within 30 s")

    def failure(self, proc: asyncio.subprocess.Process, message: str) -> DemoFailed:
        who = self.names[proc.pid]
        code = f" (exit code {proc.returncode})" if proc.returncode is not None else ""
        return DemoFailed(f"{message}{code}", who=who, output=list(self.tails[who]))

    async def until(self, done: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            if time.monotonic() > deadline:
                raise DemoFailed(f"timed out waiting for {what}")
            for proc in self.procs:
                if proc.returncode is not None:
                    await asyncio.sleep(0.2)  # the rest of its output
                    who = self.names[proc.pid]
                    raise self.failure(proc, f"{who} exited while waiting for {what}")
            await asyncio.sleep(0.05)

    async def stop(self, *, keep_hub: bool = False) -> None:
        """The agents first (their last records still reach the hub), then the hub (unless
        ``keep_hub``: a later ``stop`` stops it)."""
        agents, hub = self.procs[1:], self.procs[:1]
        for group in (agents, hub) if not keep_hub else (agents,):
            for proc in group:
                if proc.returncode is None:
                    proc.terminate()
            for proc in group:
                try:
                    await asyncio.wait_for(proc.wait(), 10)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
        if not keep_hub:
            for reader in self.readers:
                reader.cancel()


Keep = Callable[[DemoResult, str], Awaitable[None]]
"""What runs, the hub still up (its URL given), once the story is told: ``agenthub demo
--keep`` waits there for Ctrl-C."""


async def run_demo(
    narrate: Narrate,
    *,
    timeout_seconds: float = 180,
    keep: Keep | None = None,
    trace_to: Path | None = None,
    port: int | None = None,
) -> DemoResult:
    """The whole demo; every process it started is stopped when it returns or is cancelled
    (with ``keep``, the hub once ``keep`` returns). ``narrate`` is told the story a step at a
    time, in the order of the hub's record (``app.demo.teller``); ``result.events`` holds the
    lines as they arrived. ``trace_to``: a folder for the traces of every process
    (``app.demo.traces``). ``port``: the hub's port on 127.0.0.1 (default: a free one)."""
    result = DemoResult()
    async with _trace_receiver(trace_to) as endpoint:
        await _run(narrate, result, timeout_seconds, keep, endpoint, port)
    return result


@contextlib.asynccontextmanager
async def _trace_receiver(folder: Path | None) -> AsyncIterator[str | None]:
    """A loopback OTLP/HTTP receiver writing to ``folder`` while the demo runs (none without
    a folder); it stops after every process has stopped and flushed its spans."""
    if folder is None:
        yield None
        return
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(
        TraceFile(folder).app(), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await serving


async def _run(
    narrate: Narrate,
    result: DemoResult,
    timeout_seconds: float,
    keep: Keep | None,
    traces_to: str | None,
    port: int | None,
) -> None:
    with tempfile.TemporaryDirectory(prefix="agenthub-demo-") as tmp:
        teller = Storyteller(narrate, Path(tmp) / "agenthub.db")
        team = Team(Path(tmp), teller, result, traces_to, port)
        told = False
        try:
            await team.start_hub()
            for role in ROLES:
                await team.spawn(
                    role, "-m", "app.demo.team.worker", "--role", role, "--port", str(_free_port())
                )

            def registered() -> bool:
                names = {e["who"] for e in result.events if e.get("what") == "registered"}
                return names >= set(ROLES)

            await team.until(registered, 60, "the team to register")
            leader = await team.spawn(
                "leader", "-m", "app.demo.team.leader", "--port", str(_free_port())
            )
            try:
                result.leader_exit = await asyncio.wait_for(leader.wait(), timeout_seconds)
            except TimeoutError:
                teller(
                    {"t": time.time(), "who": "demo", "what": "timed out", "after": timeout_seconds}
                )
            await asyncio.sleep(0.5)  # the last records and narration lines
            await teller.finish()
            result.leader_output = list(team.tails["leader"])
            told = True
        finally:
            if not told:
                teller.finish_now()
            await team.stop(keep_hub=keep is not None and told)
        result.summary = read_summary(Path(tmp) / "agenthub.db")
        if keep is not None and told:
            try:
                await keep(result, team.hub_url)
            finally:
                await team.stop()
