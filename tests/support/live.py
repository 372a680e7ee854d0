"""Real servers on loopback for tests: the hub and agents under uvicorn, in the test's loop."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import signal
import socket
import subprocess
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn

from app.server import HubServer
from tests.support.parts import parts

# a bound on a server that never comes up, not a speed target (see tests/support/cli.py)
STARTUP_SECONDS = 60.0


LOWEST_PORT = 10_000
EPHEMERAL_PORTS_FROM = 32_768  # where /proc/sys/net/ipv4/ip_local_port_range starts by default


def port_band() -> range:
    """This process's loopback ports: an xdist worker's own slice of the ports below the
    ephemeral range, all of them without workers.

    A server run as another process binds its port after ``free_port`` let go of it; with
    ports the kernel chose (bind to 0), another worker could be given the same one in between.
    Below the ephemeral range, no outgoing connection takes one either."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, … (set by pytest-xdist)
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    # a worker that replaces a crashed one is gw4 of 4: it takes the band the crashed one left
    index = int(worker.removeprefix("gw")) % count if worker else 0
    # runs of the suite side by side (.ci/run's two) each take their own part: "1/2"
    run, runs = (int(n) for n in os.environ.get("AGENTHUB_TEST_RUN_SLOT", "0/1").split("/"))
    span = (EPHEMERAL_PORTS_FROM - LOWEST_PORT) // runs
    size = span // count
    low = LOWEST_PORT + run * span + index * size
    return range(low, low + size)


_BAND = port_band()
# anywhere in the band, so that two runs of the suite at once seldom walk the same ports in step
_next_ports = itertools.islice(itertools.cycle(_BAND), random.randrange(len(_BAND)), None)
_next_lock = threading.Lock()


def _candidate_port() -> int:
    with _next_lock:
        return next(_next_ports)


def free_port() -> int:
    """A loopback port of this worker's band that nobody listens on (for a server started as
    another process)."""
    while True:
        port = _candidate_port()
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:  # a server of this run's, another program's, or a closing connection
                continue
        return port


def bound_socket(port: int = 0) -> socket.socket:
    """A listening socket on ``port``, or on a free port of this worker's band."""
    # IPPROTO_TCP, said: asyncio sets TCP_NODELAY on accepted connections only for a socket
    # whose proto is TCP (with 0, each small answer waited ~40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    while True:
        try:
            sock.bind(("127.0.0.1", port or _candidate_port()))
        except OSError:
            if port:
                sock.close()
                raise
            continue
        break
    sock.listen(128)
    sock.setblocking(False)
    return sock


class LiveServer:
    """One uvicorn server on a socket we bound, so the port is ours before it starts."""

    def __init__(
        self,
        app: Any,
        *,
        sock: socket.socket | None = None,
        lifespan: str = "on",
        **options: Any,
    ):
        """``options`` go to ``uvicorn.Config`` (``ssl_context_factory``: the URL is https)."""
        self.app = app
        self.sock = sock or bound_socket()
        self.port: int = self.sock.getsockname()[1]
        scheme = "https" if options.get("ssl_context_factory") else "http"
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.lifespan = lifespan
        self.options = options
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> LiveServer:
        config = uvicorn.Config(
            self.app,
            log_config=None,  # keep the test's logging (tests/conftest.py watches for 500s)
            log_level="warning",
            lifespan=self.lifespan,
            loop="asyncio",
            timeout_graceful_shutdown=2,
            **self.options,
        )
        self._server = HubServer(config)
        self._server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        self._task = asyncio.create_task(self._server.serve(sockets=[self.sock]))
        deadline = asyncio.get_running_loop().time() + STARTUP_SECONDS
        while not self._server.started:
            if self._task.done():
                self._task.result()
            assert asyncio.get_running_loop().time() < deadline, "server did not start"
            await asyncio.sleep(0.01)
        return self

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self._task, 60)
        self._server = None
        self._task = None

    async def restart(self) -> None:
        """Start again on the same port (after ``stop``)."""
        self.sock = bound_socket(self.port)
        await self.start()


@contextlib.asynccontextmanager
async def serving(app: Any, **kwargs: Any) -> AsyncIterator[LiveServer]:
    server = await LiveServer(app, **kwargs).start()
    try:
        yield server
    finally:
        await server.stop()


async def until(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    """Wait until ``condition`` holds, for at most ``seconds``. For a step that needs something
    to have happened first: a fixed sleep before it says how fast the machine must be."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"not after {seconds} s: {what}"
        await asyncio.sleep(0.02)


async def streams_open(server: LiveServer, count: int) -> None:
    """Wait until the hub ``server`` serves ``count`` streams: each authorised and leased, so
    what ends a stream (a deregistration, a conclusion) now reaches it, live or in its replay."""
    metrics = parts(server.app).metrics
    await until(lambda: metrics.open_stream_count() == count, f"{count} streams open")


def interrupt(proc: subprocess.Popen[Any], seconds: float = 15) -> None:
    """Stop a process as Ctrl-C does; kill it if it has not ended within ``seconds``."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# what a hub logs when a request failed with a 500, or an exception escaped the app
SERVER_ERROR_MARKERS = ("unhandled error", "Exception in ASGI application")


def assert_no_server_errors(log: str, who: str) -> None:
    """Fail the test whose hub answered a 500 (or let an exception escape) at any point."""
    found = [line for line in log.splitlines() if any(m in line for m in SERVER_ERROR_MARKERS)]
    assert not found, f"{who} logged a server error:\n{log[-4000:]}"
