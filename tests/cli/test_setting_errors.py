"""A setting that cannot work is one line naming it, what is wrong and what to do; exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import clean_env, run_cli
from tests.support.live import free_port


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
    "bad log level option": ({}, "--log-level", ["--log-level", "verbose"]),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_wrong_setting_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    settings, named, extra_args = CASES[case]
    result = run_cli(
        "serve", "--port", str(free_port()), *extra_args, cwd=tmp_path, env=clean_env(**settings)
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("agenthub serve: ") and named in lines[0], lines[0]
    assert "Traceback" not in result.stderr + result.stdout
    # nothing was made: no store, no key
    assert sorted(p.name for p in tmp_path.iterdir()) == []


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
