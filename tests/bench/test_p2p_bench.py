"""The p2p benchmark runs end to end, briefly (numbers: BENCHMARKS.md, not here)."""

from __future__ import annotations

import pytest

from bench.p2p.__main__ import run

SECONDS_PER_PHASE = 1.0
KIT = ("kit_rpc", "kit_rpc_mtls", "kit_a2a")


pytestmark = pytest.mark.slow


async def test_every_target_answers_and_the_kit_calls_are_authenticated_and_recorded() -> None:
    report = await run(SECONDS_PER_PHASE)

    for target in ("bare_httpx", "a2a_sdk", *KIT):
        for phase in ("c1", "c16"):
            numbers = report[target][phase]
            assert numbers["calls"] > 0, (target, phase)
            assert numbers["p99_ms"] >= numbers["p50_ms"] > 0, (target, phase)
            assert numbers["rps"] > 0, (target, phase)
    for target in KIT:  # a kit phase lasts until the hub holds its records, and says so
        for phase in ("c1", "c16"):
            numbers = report[target][phase]
            assert numbers["records_per_call"] >= 1, (target, phase)
            assert numbers["hub"]["records"] > 0, (target, phase)
            assert numbers["hub"]["sql"]["statements"] > 0, (target, phase)
            assert numbers["hub"]["hub_cpu_ms_per_record"] is not None, (target, phase)
            assert numbers["hub_queries_to_confirm"] >= 1, (target, phase)
            assert numbers["seconds"] >= SECONDS_PER_PHASE, (target, phase)
    for baseline in ("bare_httpx", "a2a_sdk"):  # on an idle hub: it records nothing then
        assert report[baseline]["c16"]["hub"]["records"] == 0
    targets = report["recorded_targets"]
    for figure in (
        "kit_mtls_c16_rps_over_a2a_rps",
        "kit_mtls_c1_p50_over_a2a_c1_p50",
        "kit_mtls_c16_p99_over_a2a_c16_p50",
        "hub_cpu_ms_per_p2p_record",
        "sql_statements_per_task_record",
    ):
        assert targets[figure] is not None and targets[figure] > 0, figure
    checks = report["checks"]
    assert checks["partner_refuses"] == {"without_token": 401, "forged_token": 401}
    assert checks["answer_signatures_checked"] is True
    assert checks["kit_record_failures"] == 0
    assert checks["partner_record_failures"] == 0
    timed = report["kit_rpc"]["c1"]["calls"] + report["kit_rpc"]["c16"]["calls"]
    assert checks["kit_calls"] >= timed
    assert checks["kit_tasks_awaiting_completion_at_hub"] == checks["kit_calls"]
    assert checks["kit_mtls_tasks_awaiting_completion_at_hub"] == checks["kit_mtls_calls"]
    assert set(report["ratios"]) == {"c1", "c16"}
