"""Real processes on loopback: hub replicas (`agenthub serve`), a private redis-server, and
nginx running the project's load-balancer config in front of replicas."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import httpx

from tests.support.hub import ISSUER, OPERATOR_TOKEN, REGISTRATION_TOKEN
from tests.support.live import assert_no_server_errors, free_port, interrupt

ROOT = Path(__file__).parents[2]
# a bound on a server that never comes up, not a speed target: on 2 cores, under 4 workers and
# another suite's run, starting one took over 30 s
STARTUP_SECONDS = 120


async def wait_until(
    url: str, *, proc: subprocess.Popen[bytes] | None = None, log: Path | None = None
) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    async with httpx.AsyncClient(timeout=1) as http:
        while True:
            if proc is not None and proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                if log is not None and log.exists():
                    out += log.read_text(errors="replace")
                raise AssertionError(f"the process exited: {out}")
            try:
                if (await http.get(url)).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{url} did not come up"
            await asyncio.sleep(0.1)


class Redis:
    """A redis-server of our own, so that a test may stop and restart it."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class Replica:
    """One `agenthub serve` process; all replicas share the store, the broker and the key."""

    def __init__(
        self,
        *,
        database_url: str,
        broker_url: str,
        key_file: Path,
        workdir: Path,
        keepalive_seconds: float = 1.0,
        settings: dict[str, str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTHUB_")}
        self.env.update(
            {
                "PYTHONPATH": str(ROOT),
                "AGENTHUB_DATABASE_URL": database_url,
                "AGENTHUB_BROKER_URL": broker_url,
                "AGENTHUB_SIGNING_KEY_FILE": str(key_file),
                "AGENTHUB_ISSUER": ISSUER,
                "AGENTHUB_OPERATOR_TOKEN": OPERATOR_TOKEN,
                "AGENTHUB_REGISTRATION_TOKEN": REGISTRATION_TOKEN,
                "AGENTHUB_KEEPALIVE_SECONDS": str(keepalive_seconds),
                **(settings or {}),
            }
        )
        self.workdir = workdir
        self.log = workdir / f"replica-{self.port}.log"
        self._log_file: BinaryIO | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self._log_file = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=self.workdir,
            env=self.env,
            stdout=self._log_file,  # a file: a pipe nobody reads would fill and block it
            stderr=subprocess.STDOUT,
        )
        await wait_until(f"{self.url}/readyz", proc=self.proc, log=self.log)

    def check_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self.log.exists():
            assert_no_server_errors(self.log.read_text(errors="replace"), f"replica {self.url}")

    def kill(self) -> None:
        """Gone at once, as a crashed replica is: no graceful shutdown."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
        self.check_log()

    def stop(self) -> None:
        if self.proc is not None:
            interrupt(self.proc)
            self.proc = None
        self.check_log()


NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "default.conf.template"
NGINX_MAIN = """\
worker_processes 1;
pid {prefix}/nginx.pid;
events {{ worker_connections 512; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/conf.d/default.conf;
}}
"""


def render_template(envsubst: str, template: Path, values: dict[str, str]) -> str:
    """What the nginx image does with /etc/nginx/templates/*.template: envsubst, limited to
    the variables that are set (so nginx's own ``$host`` and the like stay as they are)."""
    shell_format = " ".join(f"${{{name}}}" for name in values)
    done = subprocess.run(
        [envsubst, shell_format],
        input=template.read_text(),
        env=values,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


class Nginx:
    """nginx as its own process, with everything it writes under ``prefix``: the project's
    template (deploy/nginx/) rendered for ``upstreams``, inside a small main config of ours
    that the nginx image's own nginx.conf stands for in Compose."""

    def __init__(
        self,
        *,
        binary: str,
        envsubst: str,
        prefix: Path,
        upstreams: Sequence[int],
        tls: tuple[Path, Path],
        tls_port: int | None = None,
    ) -> None:
        """``tls``: the certificate and key nginx serves HTTPS with (at ``tls_url``, on
        ``tls_port`` when the replicas were told it: their public URL)."""
        self.binary = binary
        self.prefix = prefix
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tls_port = tls_port or free_port()
        self.tls_url = f"https://127.0.0.1:{self.tls_port}"
        servers = " ".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstreams)
        values = {"NGINX_PORT": f"127.0.0.1:{self.port}", "NGINX_RESOLVER": ""}
        values["NGINX_HUB_SERVERS"] = servers
        values["NGINX_TLS_PORT"] = f"127.0.0.1:{self.tls_port}"
        values["NGINX_TLS_CERT"], values["NGINX_TLS_KEY"] = str(tls[0]), str(tls[1])
        (prefix / "conf.d").mkdir(parents=True, exist_ok=True)
        self.site = render_template(envsubst, NGINX_TEMPLATE, values)
        (prefix / "conf.d" / "default.conf").write_text(self.site)
        self.conf = prefix / "nginx.conf"
        self.conf.write_text(NGINX_MAIN.format(prefix=prefix))
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "-p",
                str(self.prefix),
                "-e",
                str(self.prefix / "error.log"),
                "-c",
                str(self.conf),
                "-g",
                "daemon off;",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise AssertionError(f"nginx exited: {out}{self.errors()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                await asyncio.sleep(0.05)

    def errors(self) -> str:
        log = self.prefix / "error.log"
        return log.read_text() if log.exists() else ""

    def stop(self) -> None:
        """A fast shutdown (SIGTERM): open streams are cut, nginx and its worker exit."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
