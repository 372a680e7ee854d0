"""The fan-out benchmark runs end to end on a small group (numbers: BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from bench.fanout.__main__ import OTHER_ASGI_SERVERS, SERVERS, Plan, run

pytestmark = pytest.mark.slow


async def test_every_listener_gets_every_message_from_each_server() -> None:
    plan = Plan(sizes=(6,), burst_deliveries=120, paced_seconds=0.5, paced_deliveries_per_second=60)
    plan.publishers = 16  # more than one a message at times: each takes what is left
    servers = (*SERVERS, *OTHER_ASGI_SERVERS, "hub-a2a")
    report = await run(plan, servers)

    by_server = report["sizes"]["6"]
    for name in servers:
        for phase in ("burst", "paced"):
            numbers = by_server[name][phase]
            assert numbers["deliveries"] == numbers["expected"] == 6 * numbers["messages"]
            assert numbers["p99_ms"] >= numbers["p50_ms"] > 0, (name, phase)
            assert numbers["deliveries_per_second"] > 0
        assert by_server[name]["burst"]["publishers"] == 16
        cpu = by_server[name]["burst"]["cpu_ms_per_message"]  # (a short burst: maybe 0 ticks)
        assert set(cpu) == {"server", "publisher", "listeners"}, name
        assert all(ms >= 0 for ms in cpu.values()), (name, cpu)
    assert by_server["ratios"]["hub_over_sse_starlette"] > 0
    assert by_server["ratios"]["hub_over_durable_sse"] > 0
    assert by_server["ratios"]["raw@granian_over_raw"] > 0
    assert by_server["a2a_over_hub"] > 0  # issue 35: the group's A2A subscribers
