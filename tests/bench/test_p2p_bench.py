"""The p2p benchmark runs end to end, briefly (numbers: BENCHMARKS.md, not here)."""

from __future__ import annotations

import pytest

from bench.p2p.__main__ import run

SECONDS_PER_PHASE = 1.0


pytestmark = pytest.mark.slow


async def test_every_target_answers_and_the_kit_calls_are_authenticated_and_recorded() -> None:
    report = await run(SECONDS_PER_PHASE)

    for target in ("kit_rpc", "bare_httpx", "a2a_sdk", "kit_a2a"):
        for phase in ("c1", "c16"):
            numbers = report[target][phase]
            assert numbers["calls"] > 0, (target, phase)
            assert numbers["p99_ms"] >= numbers["p50_ms"] > 0, (target, phase)
            assert numbers["rps"] > 0, (target, phase)
    checks = report["checks"]
    assert checks["partner_refuses"] == {"without_token": 401, "forged_token": 401}
    assert checks["answer_signatures_checked"] is True
    assert checks["kit_record_failures"] == 0
    timed = report["kit_rpc"]["c1"]["calls"] + report["kit_rpc"]["c16"]["calls"]
    assert checks["kit_calls"] >= timed
    assert checks["kit_tasks_awaiting_completion_at_hub"] == checks["kit_calls"]
    assert set(report["ratios"]) == {"c1", "c16"}
