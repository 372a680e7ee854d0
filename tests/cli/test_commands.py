"""The commands besides ``serve``, run as a user runs them, in a directory of their own."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

from agenthub import __version__
from app.variables import OTHERS_PREFIXES, known_variables
from tests.support.cli import clean_env, run_cli
from tests.support.replicas import Redis
from tests.support.system import require


def test_version_names_hub_kit_and_python(tmp_path: Path) -> None:
    result = run_cli("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert f"agenthub-hub {__version__}" in result.stdout
    assert f"kit agenthub {__version__}" in result.stdout


def test_every_option_has_help_with_its_default(tmp_path: Path) -> None:
    result = run_cli("serve", "--help", cwd=tmp_path)
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for option, default in (("--host", "127.0.0.1"), ("--port", "8000")):
        assert option in text and f"(default: {default})" in text, option
    for option in ("--log-level", "--no-migrate", "--no-access-log"):
        assert option in text
    top = run_cli("--help", cwd=tmp_path).stdout
    for command in ("serve", "migrate", "check", "openapi", "keys", "demo"):
        assert command in top


def test_migrate_says_what_it_applied_then_that_nothing_was_left(tmp_path: Path) -> None:
    first = run_cli("migrate", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    applied = (
        "applied 0001, 0002, 0003, 0004, 0005, 0006, 0007, 0008, 0009, 0010, 0011, 0012, 0013, "
        "0014, 0015, 0016, 0017; now at head (0017)"
    )
    assert applied in first.stdout
    assert (tmp_path / "agenthub.db").exists()
    again = run_cli("migrate", cwd=tmp_path)
    assert again.returncode == 0
    assert "already at head (0017), nothing to apply" in again.stdout
    assert again.stderr == ""


def test_check_masks_secrets_and_fails_until_migrated(tmp_path: Path) -> None:
    secret = "a-very-secret-operator-token"
    (tmp_path / ".env").write_text(f"AGENTHUB_OPERATOR_TOKEN={secret}\n")
    env = clean_env(AGENTHUB_DATABASE_URL="sqlite+aiosqlite:///./hub.db")
    before = run_cli("check", cwd=tmp_path, env=env)
    assert before.returncode == 1, before.stdout
    assert secret not in before.stdout
    assert f"AGENTHUB_OPERATOR_TOKEN                  set ({len(secret)} characters)" in (
        before.stdout
    )
    assert "FAIL  store" in before.stdout and "run `agenthub migrate`" in before.stdout
    assert "agents register with the operator token" in before.stdout
    assert not (tmp_path / "hub.db").exists()  # checking makes nothing
    assert run_cli("migrate", cwd=tmp_path, env=env).returncode == 0
    after = run_cli("check", cwd=tmp_path, env=env)
    assert after.returncode == 0, after.stdout
    assert "ok    store" in after.stdout and "all checks passed" in after.stdout


async def test_check_tells_a_broker_that_answers_from_one_that_does_not(tmp_path: Path) -> None:
    require("redis-server", "redis-server")
    redis = Redis()
    await redis.start()
    try:
        up = clean_env(AGENTHUB_BROKER_URL=redis.url)
        assert run_cli("migrate", cwd=tmp_path, env=up).returncode == 0
        answers = run_cli("check", cwd=tmp_path, env=up)
    finally:
        redis.stop()
    down = run_cli("check", cwd=tmp_path, env=clean_env(AGENTHUB_BROKER_URL=redis.url))
    assert answers.returncode == 0, answers.stdout
    assert f"ok    broker        {redis.url} answers" in answers.stdout
    assert down.returncode == 1
    assert "FAIL  broker" in down.stdout and "AGENTHUB_BROKER_URL" in down.stdout
    assert "AssertionError" not in down.stdout


def test_keys_makes_the_key_and_the_ca_once_with_mode_0600(tmp_path: Path) -> None:
    env = clean_env(AGENTHUB_SIGNING_KEY_FILE=str(tmp_path / "secrets" / "hub.pem"))
    first = run_cli("keys", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    assert first.stderr.startswith("made ")
    jwks = json.loads(first.stdout)
    assert jwks["keys"][0]["kty"] == "EC"
    mode = stat.S_IMODE(os.stat(tmp_path / "secrets" / "hub.pem").st_mode)
    assert mode == 0o600
    # the agents' CA beside it, so replicas that mount the folder read-only share one
    assert "made the agents' CA" in first.stderr
    ca_key = tmp_path / "secrets" / "agenthub-ca-key.pem"
    assert stat.S_IMODE(os.stat(ca_key).st_mode) == 0o600
    ca = (tmp_path / "secrets" / "agenthub-ca.pem").read_bytes()
    again = run_cli("keys", cwd=tmp_path, env=env)
    assert again.stderr.startswith("loaded ") and json.loads(again.stdout) == jwks
    assert "loaded the agents' CA" in again.stderr
    assert (tmp_path / "secrets" / "agenthub-ca.pem").read_bytes() == ca


def test_check_fails_on_a_misspelled_setting_and_names_the_closest(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("AGENTHUB_OPERATOR_TOKN=secret\n")
    env = clean_env(AGENTHUB_DATABSE_URL="sqlite+aiosqlite:///./elsewhere.db")
    assert run_cli("migrate", cwd=tmp_path, env=env).returncode == 0
    result = run_cli("check", cwd=tmp_path, env=env)
    assert result.returncode == 1, result.stdout
    assert (
        "FAIL  variables     AGENTHUB_DATABSE_URL: no setting has this name (set in the "
        "environment), so it is ignored; did you mean AGENTHUB_DATABASE_URL?"
    ) in result.stdout
    assert (
        "AGENTHUB_OPERATOR_TOKN: no setting has this name (set in .env), so it is ignored; "
        "did you mean AGENTHUB_OPERATOR_TOKEN?"
    ) in result.stdout
    assert "FAILED: variables" in result.stdout
    # what the kit, its examples and the tests read is no misspelling of the hub's
    (tmp_path / ".env").unlink()
    others = clean_env(
        AGENTHUB_URL="http://127.0.0.1:8000",
        AGENTHUB_TOKEN="change-me",
        AGENTHUB_LLM_MODEL="llama3.2",
        AGENTHUB_TEST_DATABASE_URL="sqlite+aiosqlite:///./t.db",
    )
    passed = run_cli("check", cwd=tmp_path, env=others)
    assert passed.returncode == 0, passed.stdout
    assert "ok    variables" in passed.stdout


def test_every_agenthub_variable_the_project_names_is_a_known_one() -> None:
    """The known set (the hub's settings, and what the kit, examples, benchmarks and tests
    read) holds every ``AGENTHUB_`` name in the project's code and docs, so that ``check``
    never fails on a variable something does read."""
    root = Path(__file__).parents[2]
    places = ["app", "agenthub", "examples", "bench", "tests", "deploy", "docs", "kit"]
    files = [p for place in places for p in (root / place).rglob("*") if p.is_file()]
    files += [root / name for name in ("README.md", "Makefile", "docker-compose.yml")]
    named: set[str] = set()
    for path in files:
        if path.suffix in {".png", ".pyc", ".db", ".whl", ".gz"} or path == Path(__file__):
            continue  # (this file's misspellings are on purpose)
        named.update(re.findall(r"AGENTHUB_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(errors="ignore")))
    # the form of a setting error, in its docstring; misspellings the docs and tests show
    placeholders = {"AGENTHUB_X", "AGENTHUB_DATABSE_URL", "AGENTHUB_OPERATOR_TOKN"}
    unknown = sorted(
        n
        for n in named - placeholders
        if n not in known_variables() and not n.startswith(OTHERS_PREFIXES)
    )
    assert unknown == []
