"""``agenthub demo`` and the benchmarks stop every process they started on SIGTERM or SIGHUP,
whatever the signal dispositions they started with (a script's ``&`` ignores SIGINT)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness import ROOT
from tests.support.cli import AGENTHUB, clean_env

START_SECONDS = 120.0  # bounds, not speeds: a loaded machine starts slowly
STOP_SECONDS = 60.0


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone, only not yet reaped


IGNORING_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)
"""Runs its arguments as a command that starts with SIGINT ignored (kept across exec), as a
shell's ``&`` starts one; the same process, so the same pid."""


def _stops_its_children(command: list[str], signum: int, *, at_least: int, cwd: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", IGNORING_SIGINT, *command],
        cwd=cwd,
        env=clean_env(PYTHONPATH=str(ROOT)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children: set[int] = set()
    try:
        deadline = time.monotonic() + START_SECONDS
        while len(children) < at_least:
            assert proc.poll() is None, f"{command} exited with {proc.returncode} first"
            assert time.monotonic() < deadline, f"{command} started {len(children)} processes"
            time.sleep(0.2)
            children |= _children(proc.pid)
        time.sleep(1)  # whatever it starts along with them
        children |= _children(proc.pid)
        proc.send_signal(signum)
        proc.wait(timeout=STOP_SECONDS)
        deadline = time.monotonic() + STOP_SECONDS
        while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in children if _alive(pid)], "left running"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in children | _children(proc.pid):  # what a failure left: not for the next
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_the_demo_stops_its_hub_and_agents(signum: int, tmp_path: Path) -> None:
    _stops_its_children([AGENTHUB, "demo", "--keep"], signum, at_least=3, cwd=tmp_path)


def test_a_benchmark_stops_its_servers(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "bench.p2p", "--quick"]
    _stops_its_children(command, signal.SIGTERM, at_least=3, cwd=ROOT)
