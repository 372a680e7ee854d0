"""A setting that cannot work is one line naming it, what is wrong and what to do; exit 2."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.cli import AGENTHUB, clean_env, run_cli
from tests.support.live import bound_socket, free_port


def _closed_port_url() -> str:
    return f"postgresql+asyncpg://agenthub@127.0.0.1:{free_port()}/agenthub"


CASES = {
    "garbage database url": ({"AGENTHUB_DATABASE_URL": "garbage"}, "AGENTHUB_DATABASE_URL", []),
    "sync driver": (
        {"AGENTHUB_DATABASE_URL": "postgresql://u@localhost/db"},
        "AGENTHUB_DATABASE_URL",
        [],
    ),
    "postgresql down": (
        {"AGENTHUB_DATABASE_URL": _closed_port_url()},
        "AGENTHUB_DATABASE_URL",
        [],
    ),
    "sqlite directory missing": (
        {"AGENTHUB_DATABASE_URL": "sqlite+aiosqlite:///./no/such/dir/hub.db"},
        "AGENTHUB_DATABASE_URL",
        [],
    ),
    "key path cannot be made": (
        {"AGENTHUB_SIGNING_KEY_FILE": "/proc/agenthub/key.pem"},
        "AGENTHUB_SIGNING_KEY_FILE",
        [],
    ),
    "key path is not a key": (
        {"AGENTHUB_SIGNING_KEY_FILE": "/etc/hostname"},
        "AGENTHUB_SIGNING_KEY_FILE",
        [],
    ),
    "unknown broker": ({"AGENTHUB_BROKER_URL": "kafka://x"}, "AGENTHUB_BROKER_URL", []),
    "number out of range": (
        {"AGENTHUB_ACCESS_TOKEN_SECONDS": "5"},
        "AGENTHUB_ACCESS_TOKEN_SECONDS",
        [],
    ),
    "not a boolean": ({"AGENTHUB_OPEN_REGISTRATION": "maybe"}, "AGENTHUB_OPEN_REGISTRATION", []),
    "secret file missing": (
        {"AGENTHUB_OPERATOR_TOKEN_FILE": "/nonexistent/token"},
        "AGENTHUB_OPERATOR_TOKEN_FILE",
        [],
    ),
    "secret twice": (
        {"AGENTHUB_OPERATOR_TOKEN": "a", "AGENTHUB_OPERATOR_TOKEN_FILE": "/etc/hostname"},
        "AGENTHUB_OPERATOR_TOKEN_FILE",
        [],
    ),
    "public url not a url": (
        {"AGENTHUB_PUBLIC_URL": "hub.example.com"},
        "AGENTHUB_PUBLIC_URL",
        [],
    ),
    "off loopback without a public url": ({}, "AGENTHUB_PUBLIC_URL", ["--host", "0.0.0.0"]),
    "bad log level option": ({}, "--log-level", ["--log-level", "verbose"]),
    "port out of range": ({}, "--port", ["--port", "99999"]),
    "port zero": ({}, "--port", ["--port", "0"]),
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, list[str]]]:
    """Every case's ``agenthub serve``, run side by side (each start costs most of a second):
    exit code, standard error, and what the run left in its empty directory."""
    started = {}
    for case, (settings, _, extra_args) in CASES.items():
        where = tmp_path_factory.mktemp("case")
        command = [AGENTHUB, "serve", "--port", str(free_port()), *extra_args]
        started[case] = (
            where,
            subprocess.Popen(
                command,
                cwd=where,
                env=clean_env(**settings),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            ),
        )
    results = {}
    for case, (where, proc) in started.items():
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        results[case] = (proc.returncode, out + err, sorted(p.name for p in where.iterdir()))
    return results


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_wrong_setting_is_one_line_and_exit_2(
    case: str, outcomes: dict[str, tuple[int, str, list[str]]]
) -> None:
    named = CASES[case][1]
    code, output, left = outcomes[case]
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("agenthub serve: ") and named in lines[0], lines[0]
    assert left == []  # nothing was made: no store, no key


def test_debug_adds_the_traceback(tmp_path: Path) -> None:
    result = run_cli(
        "--debug", "migrate", cwd=tmp_path, env=clean_env(AGENTHUB_DATABASE_URL=_closed_port_url())
    )
    assert result.returncode == 2
    assert "Traceback" in result.stderr
    assert (
        result.stderr.strip().splitlines()[-1].startswith("agenthub migrate: AGENTHUB_DATABASE_URL")
    )


def test_migrate_and_check_name_the_setting_too(tmp_path: Path) -> None:
    env = clean_env(AGENTHUB_DATABASE_URL="garbage")
    for command in ("migrate", "check", "keys"):
        result = run_cli(command, cwd=tmp_path, env=env)
        assert result.returncode == 2, (command, result.stderr)
        assert result.stderr.startswith(f"agenthub {command}: AGENTHUB_DATABASE_URL")


@pytest.mark.slow
def test_a_busy_port_is_one_line_and_exit_2_before_anything_else(tmp_path: Path) -> None:
    """Another process listens there (for the demo: it could be someone else's hub, which
    answers /readyz): ``serve`` and ``demo`` say so in one line, and make nothing."""
    with bound_socket() as held:
        held.listen()
        port = str(held.getsockname()[1])
        served = run_cli("serve", "--port", port, cwd=tmp_path, env=clean_env())
        demo = run_cli("demo", "--port", port, cwd=tmp_path, env=clean_env())
    for command, result in (("serve", served), ("demo", demo)):
        assert result.returncode == 2, result.stdout + result.stderr
        lines = (result.stdout + result.stderr).strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(
            f"agenthub {command}: --port: port {port} on 127.0.0.1 is in use"
        )
    assert "choose another port" in served.stderr and "leave --port out" in demo.stderr
    assert list(tmp_path.iterdir()) == []  # no store, no key
