"""The fan-out benchmark runs end to end on a small group (numbers: BENCHMARKS.md)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.fanout.__main__ import OTHER_ASGI_SERVERS, SERVERS, Plan, run

pytestmark = pytest.mark.slow


async def test_every_listener_gets_every_message_from_each_server() -> None:
    plan = Plan(sizes=(6,), burst_deliveries=120, paced_seconds=0.5, paced_deliveries_per_second=60)
    plan.publishers = (4, 16)  # at 16 more publishers than messages at times
    plan.rounds = 2  # the servers take turns, each burst twice
    servers = (*SERVERS, *OTHER_ASGI_SERVERS, "hub-a2a")
    report = await run(plan, servers)

    by_server = report["sizes"]["6"]
    for name in servers:
        for phase in ("burst", "burst@16", "paced"):
            numbers = by_server[name][phase]
            assert numbers["deliveries"] == numbers["expected"] == 6 * numbers["messages"]
            assert numbers["p99_ms"] >= numbers["p50_ms"] > 0, (name, phase)
            assert numbers["deliveries_per_second"] > 0
        for phase in ("burst", "burst@16"):  # the median (of two: the faster) round, and each
            rounds = by_server[name][phase]["rounds"]
            assert len(rounds) == 2 and by_server[name][phase]["deliveries_per_second"] == max(
                rounds
            )
        assert by_server[name]["burst"]["publishers"] == 4
        assert by_server[name]["burst@16"]["publishers"] == 16
        cpu = by_server[name]["burst"]["cpu_ms_per_message"]  # (a short burst: maybe 0 ticks)
        assert set(cpu) == {"server", "publisher", "listeners"}, name
        assert all(ms >= 0 for ms in cpu.values()), (name, cpu)
    assert by_server["ratios"]["hub_over_sse_starlette"] > 0
    assert by_server["ratios"]["hub_over_sse_starlette@16"] > 0
    assert by_server["ratios"]["hub_over_durable_sse"] > 0
    assert by_server["ratios"]["raw@granian_over_raw"] > 0
    assert by_server["a2a_over_hub"] > 0  # the group's A2A subscribers


def test_the_n10_target_is_read_at_16_publishers_and_the_round_trip_shown() -> None:
    from bench.__main__ import verdicts

    ratios = {"hub_over_sse_starlette": 0.72, "hub_over_sse_starlette@16": 0.85}
    hub = {"burst": {"publishers": 4}}
    lines = verdicts({"fanout": {"sizes": {"10": {"ratios": ratios, "hub": hub}}}})
    assert lines == [
        "PASS  fan-out N=10, hub / sse-starlette, 16 publishers: 0.85 (target >= 0.8)",
        "----  fan-out N=10, hub / sse-starlette, 4 publishers: 0.72",
    ]
    ratios["hub_over_sse_starlette@16"] = 0.79
    assert verdicts({"fanout": {"sizes": {"10": {"ratios": ratios, "hub": hub}}}})[0][:4] == "MISS"


def test_issue_30s_record_targets_are_read_from_the_p2p_and_ingest_reports() -> None:
    from bench.__main__ import verdicts

    recorded = {
        "kit_mtls_c16_rps_over_a2a_rps": 1.12,
        "kit_mtls_c1_p50_over_a2a_c1_p50": 1.6,  # past its bound
        "kit_mtls_c16_p99_over_a2a_c16_p50": 1.74,
        "hub_cpu_ms_per_p2p_record": 0.35,
        "sql_statements_per_task_record": 0.29,
    }
    ingest = {
        "hub": {"posts_per_second": 4271},
        "hub_over_bare": 0.41,
        "session_task_reports": {"messages_per_second": 6690},
    }
    lines = verdicts({"p2p": {"recorded_targets": recorded}, "ingest": ingest})
    assert [line[:4] for line in lines] == ["PASS"] * 4 + ["MISS"] + ["PASS"] * 3
    assert "kit rpc mTLS c1 p50 / a2a-sdk's: 1.6 (target <= 1.5)" in lines[4]


def test_servers_that_took_turns_are_compared_round_by_round() -> None:
    from bench.fanout.__main__ import _ratio

    sse: dict[str, Any] = {"deliveries_per_second": 10_000, "rounds": [10_000, 10_000, 10_000]}
    by_server = {
        "hub": {"burst": {"deliveries_per_second": 8_500, "rounds": [8_000, 8_500, 9_000]}},
        "sse-starlette": {"burst": sse},
        "raw": {"burst": {"deliveries_per_second": 20_000}},  # a lone burst: the two rates
    }
    assert _ratio(by_server, "hub", "sse-starlette", "burst") == 0.85
    sse["rounds"] = [10_000, 6_000, 10_000]  # the machine slowed while sse-starlette ran round 2
    # each round's ratio: 0.8, 1.42, 0.9; their median, not 8,500 / 10,000
    assert _ratio(by_server, "hub", "sse-starlette", "burst") == 0.9
    assert _ratio(by_server, "hub", "raw", "burst") == 0.42
