"""``python -m bench.p2p``: the kit's point-to-point ``rpc`` round trip, fully authenticated,
beside a bare httpx POST to a bare endpoint and a2a-sdk's message/send to its echo agent.

The hub, the kit partner, the bare endpoint and the a2a-sdk agent each run as their own
uvicorn process on 127.0.0.1; this process is the leader and the client of all three. For
each target: a warm-up, then S seconds one call at a time (p50/p99 latency, requests/s),
then S seconds with 16 concurrent callers. The kit's path is the real one: the command is
recorded at the hub before the call, the partner checks the call token and records its
task's moves before it answers, the leader checks the answer's signature.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from bench import harness
from bench.p2p.servers import start_servers
from bench.p2p.targets import (
    Call,
    Kit,
    handshake_ms,
    open_targets,
    refused_calls,
    tasks_at_hub,
)

CONCURRENCY = 16
DEFAULT_SECONDS = 8.0
QUICK_SECONDS = 2.0
WARMUP_SECONDS = 1.0
PHASE_GRACE_SECONDS = 60.0
RECORD_WAIT_SECONDS = 15.0


async def phase(call: Call, concurrency: int, seconds: float) -> dict[str, Any]:
    """``concurrency`` callers, each calling again until ``seconds`` passed."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def caller() -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await call()
            latencies.append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    await asyncio.wait_for(
        asyncio.gather(*(caller() for _ in range(concurrency))), seconds + PHASE_GRACE_SECONDS
    )
    elapsed = time.perf_counter() - started
    return {
        "p50_ms": round(harness.percentile(latencies, 50), 2),
        "p99_ms": round(harness.percentile(latencies, 99), 2),
        "rps": round(len(latencies) / elapsed, 1),
        "calls": len(latencies),
    }


async def measure(calls: dict[str, Call], seconds: float) -> dict[str, dict[str, Any]]:
    """Warm every target up, then each at concurrency 1, then each at 16, in that order."""
    for call in calls.values():
        await phase(call, CONCURRENCY, min(WARMUP_SECONDS, seconds))
    results: dict[str, dict[str, Any]] = {name: {} for name in calls}
    for label, concurrency in (("c1", 1), (f"c{CONCURRENCY}", CONCURRENCY)):
        for name, call in calls.items():
            results[name][label] = await phase(call, concurrency, seconds)
    return results


def _ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else 0.0


def ratios(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    kit, bare, a2a = results["kit_rpc"], results["bare_httpx"], results["a2a_sdk"]
    return {
        label: {
            "kit_p50_over_bare_p50": _ratio(kit[label]["p50_ms"], bare[label]["p50_ms"]),
            "kit_rps_over_bare_rps": _ratio(kit[label]["rps"], bare[label]["rps"]),
            "kit_p50_over_a2a_p50": _ratio(kit[label]["p50_ms"], a2a[label]["p50_ms"]),
            "kit_rps_over_a2a_rps": _ratio(kit[label]["rps"], a2a[label]["rps"]),
            "mtls_p50_over_plain_p50": _ratio(
                results["kit_rpc_mtls"][label]["p50_ms"], kit[label]["p50_ms"]
            ),
            "kit_a2a_rps_over_a2a_rps": _ratio(results["kit_a2a"][label]["rps"], a2a[label]["rps"]),
        }
        for label in kit
    }


def verdict(ratio: dict[str, dict[str, float]]) -> dict[str, bool]:
    """The issue's target: p50 at most 2x bare httpx, and faster than a2a-sdk."""
    return {
        "kit_p50_at_most_2x_bare": ratio["c1"]["kit_p50_over_bare_p50"] <= 2,
        "kit_faster_than_a2a": all(
            r["kit_p50_over_a2a_p50"] < 1 and r["kit_rps_over_a2a_rps"] > 1 for r in ratio.values()
        ),
        "mtls_p50_at_most_1.2x_plain": ratio["c1"]["mtls_p50_over_plain_p50"] <= 1.2,
        f"kit_a2a_c{CONCURRENCY}_at_least_0.8x_a2a": (
            ratio[f"c{CONCURRENCY}"]["kit_a2a_rps_over_a2a_rps"] >= 0.8
        ),
    }


async def checks(kit: Kit, partner_url: str) -> dict[str, Any]:
    """What shows the kit calls were real: refused without proof, every task at the hub."""
    await kit.agent.recorder.flush(RECORD_WAIT_SECONDS)
    recorded = await tasks_at_hub(kit)
    deadline = time.monotonic() + RECORD_WAIT_SECONDS  # the partner's last records may lag
    while recorded < kit.calls and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        recorded = await tasks_at_hub(kit)
    return {
        "kit_calls": kit.calls,
        "kit_tasks_awaiting_completion_at_hub": recorded,
        "kit_record_failures": len(kit.agent.recorder.failures),
        "answer_signatures_checked": kit.agent.leader.verify_answers,
        "partner_refuses": await refused_calls(kit, partner_url),
    }


async def run(seconds: float) -> dict[str, Any]:
    """Start the servers, time the three targets for ``seconds`` per phase, stop everything."""
    with tempfile.TemporaryDirectory() as tmp, harness.processes() as started:
        servers = await start_servers(Path(tmp), started)
        async with AsyncExitStack() as stack:
            targets = await open_targets(servers, stack)
            results = await measure(targets.calls, seconds)
            checked = await checks(targets.kit, servers.partner_url)
            handshake = await handshake_ms(targets.kit_mtls, servers.tls_partner_url)
    ratio = ratios(results)
    return {
        "machine": harness.machine(),
        "seconds_per_phase": seconds,
        "concurrency": CONCURRENCY,
        **results,
        "ratios": ratio,
        "target": verdict(ratio),
        "mtls_handshake": handshake,
        "checks": checked,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.p2p", description=__doc__)
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="per phase")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SECONDS:g} s per phase")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    report = asyncio.run(run(QUICK_SECONDS if args.quick else args.seconds))
    return harness.publish_report(report, args.json)


if __name__ == "__main__":
    sys.exit(main())
