"""Every code block of the README and of every page of the docs site runs as written, against
a live hub; and the site builds (``mkdocs build --strict``, as ``make docs``).

Each page is run on its own, in a directory of its own. Each fence carries a ``<!--
readme-test: MODE -->`` line before it, so that no block escapes:
``hub`` (a shell block that starts the hub, kept running), ``background`` (a program kept
running until the end, then stopped with Ctrl-C), ``run`` (to completion, exit 0), ``run
twice``, ``exit 2``, or ``skip: <why>``. The blocks run in order, in a directory of their own
that holds only links to the checkout's ``.venv``, ``Makefile``, project files and ``examples``;
the hub's port 8000, the examples' 9001 and 9002 (``ECHO_PORT``, ``LEADER_PORT``) and the snippets'
ports 9011 and 9012 become free ports.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.cli import clean_env
from tests.support.live import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
LINKED = (".venv", "Makefile", "pyproject.toml", "kit", "examples")
BLOCK = re.compile(
    r"<!-- readme-test: (?P<mode>[^>]*?) -->\n```(?P<lang>\w+)\n(?P<body>.*?)```", re.S
)
FENCE = re.compile(r"^```\w+$", re.M)
RUN_SECONDS = 180.0
STARTUP_SECONDS = 60.0


@dataclass
class Block:
    mode: str
    lang: str
    body: str
    line: int

    page: str = "README.md"

    def __str__(self) -> str:
        return f"{self.page} line {self.line} ({self.mode})"


def blocks(page: Path = README) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    name = page.relative_to(ROOT).as_posix()
    found = [
        Block(m["mode"].strip(), m["lang"], m["body"], text.count("\n", 0, m.start()) + 2, name)
        for m in BLOCK.finditer(text)
    ]
    assert len(found) == len(FENCE.findall(text)), f"a code block of {name} has no readme-test mode"
    return found


class Sandbox:
    def __init__(self, where: Path) -> None:
        self.dir = where
        for name in LINKED:
            (where / name).symlink_to(ROOT / name)
        self.ports = {p: free_port() for p in ("8000", "9001", "9002", "9011", "9012")}
        self.hub_url = f"http://127.0.0.1:{self.ports['8000']}"
        # the examples' own ports (9001, 9002 unless told) free ones too: two pages run at
        # once (xdist) would otherwise both start a partner on 9001
        self.env = {
            **clean_env(),
            "ECHO_PORT": str(self.ports["9001"]),
            "LEADER_PORT": str(self.ports["9002"]),
        }
        self.kept: list[tuple[Block, subprocess.Popen[str]]] = []

    def text_of(self, block: Block) -> str:
        body = block.body
        for port, free in self.ports.items():
            body = body.replace(f"127.0.0.1:{port}", f"127.0.0.1:{free}")
            body = body.replace(f"PORT={port}", f"PORT={free}")
        return body.replace("make serve", f"make serve PORT={self.ports['8000']}")

    def start(self, block: Block) -> subprocess.Popen[str]:
        if block.lang == "python":
            script = self.dir / f"block_{block.line}.py"  # (a page's blocks share the directory)
            script.write_text(self.text_of(block))
            command = [str(self.dir / ".venv" / "bin" / "python"), script.name]
        else:
            command = ["bash", "-c", self.text_of(block)]
        return subprocess.Popen(
            command,
            cwd=self.dir,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its children (`cmd &`, make's) are stopped with it
        )

    def run(self, block: Block) -> tuple[int, str]:
        proc = self.start(block)
        try:
            output, _ = proc.communicate(timeout=RUN_SECONDS)
        finally:
            _stop_group(proc)
        return proc.returncode, output

    def keep(self, block: Block) -> subprocess.Popen[str]:
        proc = self.start(block)
        self.kept.append((block, proc))
        return proc

    def stop_all(self) -> list[tuple[Block, int, str]]:
        results = []
        for block, proc in reversed(self.kept):
            _stop_group(proc, signal.SIGINT)
            output = proc.stdout.read() if proc.stdout else ""
            results.append((block, proc.returncode, output))
        return results


def _stop_group(proc: subprocess.Popen[str], sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _wait_ready(url: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("the README's hub did not become ready")


@pytest.mark.parametrize(
    "page", [p for p in PAGES if BLOCK.search(p.read_text(encoding="utf-8"))], ids=lambda p: p.stem
)
def test_every_block_of_a_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    stamp = subprocess.run(
        ["make", "-q", ".venv/.serve-installed"], cwd=ROOT, capture_output=True, check=False
    )
    assert stamp.returncode == 0, "the venv is older than pyproject.toml: run make test"
    sandbox = Sandbox(tmp_path)
    try:
        for block in blocks(page):
            if block.mode.startswith("skip:"):
                continue
            if block.mode == "hub":
                _wait_ready(sandbox.hub_url, sandbox.keep(block))
            elif block.mode == "background":
                proc = sandbox.keep(block)
                assert proc.stdout is not None
                first = proc.stdout.readline()
                assert first.strip(), f"{block} printed nothing: {proc.stdout.read()}"
            elif block.mode in ("run", "run twice"):
                outputs = []
                for _ in range(2 if block.mode == "run twice" else 1):
                    code, output = sandbox.run(block)
                    assert code == 0, f"{block} exited {code}:\n{output}"
                    assert "Traceback" not in output, f"{block}:\n{output}"
                    outputs.append(output)
                if block.mode == "run twice":  # the same agent both times
                    assert outputs[0].splitlines()[0] == outputs[1].splitlines()[0], outputs
            elif block.mode == "exit 2":
                code, output = sandbox.run(block)
                assert code == 2 and len(output.strip().splitlines()) == 1, f"{block}:\n{output}"
            else:
                raise AssertionError(f"{block}: unknown readme-test mode")
    finally:
        stopped = sandbox.stop_all()
    for block, code, output in stopped:
        assert "Traceback" not in output and " ERROR " not in output, f"{block}:\n{output}"
        assert code in (0, -signal.SIGINT, 2 if block.mode == "hub" else 0), f"{block}: {code}"


def test_every_page_marks_each_of_its_code_blocks() -> None:
    for page in PAGES:
        blocks(page)  # asserts every fence has its mode


def test_the_docs_site_builds_strict(tmp_path: Path) -> None:
    """``make docs``: every page in the nav and every link between pages resolves, and the
    generated pages (problem codes, the command line, the API) build from the code."""
    built = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    problems = (tmp_path / "reference" / "problems.html").read_text(encoding="utf-8")
    assert "not-your-turn" in problems and "operator-only" in problems
    cli = (tmp_path / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "agenthub serve" in cli and "--no-migrate" in cli
    api = (tmp_path / "reference" / "api.html").read_text(encoding="utf-8")
    assert 'POST</span> /v1/groups/<span class="route-param">{groupId}</span>/messages' in api
    home = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "When to use it" in home and "readme-test" not in home
