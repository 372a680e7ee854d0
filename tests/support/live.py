"""Real servers on loopback for tests: the hub and agents under uvicorn, in the test's loop."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from app.server import HubServer

STARTUP_SECONDS = 10.0


def free_port() -> int:
    """A loopback port nobody listens on (for a server started as another process)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def bound_socket(port: int = 0) -> socket.socket:
    # IPPROTO_TCP, said: asyncio sets TCP_NODELAY on accepted connections only for a socket
    # whose proto is TCP (with 0, each small answer waited ~40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
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
                await asyncio.wait_for(self._task, 10)
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
