"""schemathesis against a live hub (`agenthub serve`), every operation with a valid token:
no 500s, and every response conforms to the published schema."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agenthub import AgentKey, HubClient
from tests.support.hub import OPERATOR_TOKEN, REGISTRATION_TOKEN, card, empty_tables
from tests.support.replicas import Replica

pytestmark = pytest.mark.slow


FUZZ_SECONDS = 600
CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_EXAMPLES = 5


def schemathesis_cli() -> str:
    found = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    assert found, "schemathesis is part of the test extra"
    return found


@pytest.fixture
async def served(database_url: str, tmp_path: Path) -> AsyncIterator[Replica]:
    hub = Replica(
        database_url=database_url,
        broker_url="memory://",
        key_file=tmp_path / "key.pem",
        workdir=tmp_path,
        # thousands of generated token requests come from one address: the limits, which
        # tests/api/test_limits.py covers, would answer most of the rest with 429
        settings={
            "AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS": "0",
            "AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT": "0",
            "AGENTHUB_POSTS_PER_SECOND_PER_AGENT": "0",
        },
    )
    await hub.start()
    try:
        yield hub
    finally:
        hub.stop()
        await empty_tables(database_url)


EXCLUDED = "/events$|^/v1/operator/"
"""SSE streams never end by themselves (their errors are tested in tests/groups); the
operator's read API is fuzzed apart, as the operator (an agent only ever gets 403 there).
schemathesis keeps one --exclude-path-regex, the last: one regex says both."""


async def _fuzz(hub: Replica, *selection: str, as_operator: bool = False) -> str:
    """One schemathesis run, as a newly registered agent (or the operator), over the
    operations selected."""
    async with HubClient(hub.url, key=AgentKey.generate()) as kit:
        await kit.register(card("fuzzer", kit.key), registration_token=REGISTRATION_TOKEN)
        token = OPERATOR_TOKEN if as_operator else await kit.access_token()
        agent_id = str(kit.agent_id)
    command = [
        schemathesis_cli(),
        "--config-file",
        str(CONFIG),
        "run",
        f"{hub.url}/openapi.json",
        "--checks",
        "all",
        "--exclude-path-regex",
        EXCLUDED if not as_operator else "/events$",
        *selection,
        "--max-examples",
        str(MAX_EXAMPLES),
        "--request-timeout",
        "10",
        "--seed",
        "185",
        "--no-color",
    ]
    env = {
        **os.environ,
        "AGENTHUB_FUZZ_ACCESS_TOKEN": token,
        "AGENTHUB_FUZZ_AGENT_ID": agent_id,
        "AGENTHUB_FUZZ_REGISTRATION_TOKEN": REGISTRATION_TOKEN,
    }
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    out, _ = await asyncio.wait_for(proc.communicate(), FUZZ_SECONDS)
    report = out.decode()
    # the failures, with each line cut short (a reproducing curl can be megabytes long)
    failures = report[report.find("FAILURES") :] if "FAILURES" in report else report
    assert proc.returncode == 0, "\n".join(line[:600] for line in failures.splitlines())[:12000]
    assert " passed" in report and "Tested:" in report
    return report


RECORDS = "^/v1/(sessions|tasks|groups)"
"""The record routes and what they move, fuzzed apart from the registry's: one schemathesis
run of every operation took 8-10 minutes with the two passes side by side, near the
suite's per-test bound; each part is a test of its own, which the workers share."""


@pytest.mark.parametrize(
    ("selection", "as_operator"),
    [
        pytest.param(
            ("--include-path-regex", RECORDS, "--exclude-path-regex", "/events$"),
            False,
            id="records",
        ),
        # deregistering itself would leave the fuzzer with nothing but 401s: it is fuzzed
        # alone, last
        pytest.param(
            (
                "--exclude-path-regex",
                f"{EXCLUDED}|{RECORDS}",
                "--exclude-operation-id",
                "delete_agent",
            ),
            False,
            id="registry",
        ),
        # the operator's read API answers an agent 403 only: it is fuzzed as the operator
        pytest.param(("--include-path-regex", "^/v1/operator/"), True, id="operator"),
        pytest.param(("--include-operation-id", "delete_agent"), False, id="deregistration"),
    ],
)
async def test_no_operation_fails_or_breaks_its_schema(
    served: Replica, selection: tuple[str, ...], as_operator: bool
) -> None:
    await _fuzz(served, *selection, as_operator=as_operator)
