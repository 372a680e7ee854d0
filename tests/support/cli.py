"""The ``agenthub`` command as a user runs it: a real process, in a directory of the test's."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.support.live import assert_no_server_errors, free_port, interrupt

AGENTHUB = str(Path(sys.executable).parent / "agenthub")
# a bound on a server that never comes up, not a speed target: on 2 cores, under 4 workers and
# another suite's run, starting one took over 30 s
STARTUP_SECONDS = 120.0


def clean_env(**settings: str) -> dict[str, str]:
    """The environment without any AGENTHUB_ setting of the caller's, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTHUB_")}
    env.update(settings)
    return env


def run_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [AGENTHUB, *args],
        cwd=cwd,
        env=env if env is not None else clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_ok(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> str:
    """Run a program (a build, a venv's pip or python) to completion: its output, or the
    test fails with what it printed."""
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env or clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result.stdout


ROOT = Path(__file__).parents[2]  # the repository


def build_wheel(project: Path, out: Path, *, timeout: float) -> None:
    """``python -m build --wheel`` of ``project`` (the repository's root: the hub; ``kit``)
    into ``out``."""
    run_ok(sys.executable, "-m", "build", "--wheel", "-o", out, project, cwd=ROOT, timeout=timeout)


class ServedHub:
    """``agenthub serve`` on a free loopback port; ``stop()`` ends it as Ctrl-C does and
    returns everything it logged."""

    def __init__(
        self,
        cwd: Path,
        env: dict[str, str],
        *args: str,
        command: list[str] | None = None,
        ca: Path | None = None,
    ) -> None:
        """``ca``: the hub serves https (AGENTHUB_TLS_*), with a certificate of this CA."""
        self.port = free_port()
        self.ca = ca
        self.url = f"{'https' if ca else 'http'}://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [*(command or [AGENTHUB]), "serve", "--port", str(self.port), *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output = ""

    def wait_until_up(self) -> ServedHub:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the hub exited: {self.stop()}")
            try:
                verify = ssl.create_default_context(cafile=self.ca) if self.ca else True
                if httpx.get(f"{self.url}/healthz", timeout=1, verify=verify).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the hub did not start: {self.stop()}")
            time.sleep(0.1)

    def stop(self) -> str:
        if self.proc.poll() is None:
            interrupt(self.proc)
        if self.proc.stdout is not None and not self.proc.stdout.closed:
            self.output += self.proc.stdout.read()
            self.proc.stdout.close()
            assert_no_server_errors(self.output, f"agenthub serve on port {self.port}")
        return self.output

    def __enter__(self) -> ServedHub:
        return self.wait_until_up()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
