"""The examples, run as a user would with a wrong token: the hub's refusal is one line in its
own words and a non-zero exit, not a traceback."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.support.cli import clean_env
from tests.support.kit import LiveHub
from tests.support.live import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
RUN_SECONDS = 120  # a hang bound
REFUSED = "This registration token is not accepted."


async def _run(script: str, *args: str, env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "examples" / script),
        *args,
        cwd=env["HOME"],
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(RUN_SECONDS):
            out, err = await proc.communicate()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_every_example_says_a_wrong_token_in_one_line(
    live_hub: LiveHub, tmp_path: Path
) -> None:
    env = clean_env(
        HOME=str(tmp_path),
        AGENTHUB_URL=live_hub.url,
        AGENTHUB_TOKEN="not-the-token",
        ECHO_PORT=str(free_port()),
        LEADER_PORT=str(free_port()),
        LLM_PORT=str(free_port()),
        AGENTHUB_LLM_BASE_URL="http://127.0.0.1:9/v1",  # never reached: it registers first
        AGENTHUB_LLM_MODEL="any",
    )
    runs = {
        "echo_partner": ("echo_partner.py",),
        "leader": ("leader.py",),
        "llm_partner": ("llm_partner.py",),
        "llm_leader": ("llm_leader.py",),
        "a2a_group_client": ("a2a_group_client.py", "g-any"),
    }
    done = await asyncio.gather(*(_run(*run, env=env) for run in runs.values()))
    for name, (code, out, err) in zip(runs, done, strict=True):
        assert code == 1, (name, out, err)
        assert err.strip().splitlines() == [f"{name}: {REFUSED}"], (name, err)
        assert "Traceback" not in out + err
