"""``python -m bench.p2p``: the kit's point-to-point ``rpc`` round trip, fully authenticated
and recorded, beside a bare httpx POST to a bare endpoint and a2a-sdk's message/send to its
echo agent.

The hub, the kit partners, the bare endpoint and the a2a-sdk agent each run as their own
uvicorn process on 127.0.0.1; this process is the leader and the client of all of them. For
each target: a warm-up, then S seconds one call at a time (p50/p99 latency, calls/s), then S
seconds with 16 concurrent callers. The baselines run first, while the hub idles. The kit's
path is the real one: the command is recorded at the hub before the call, the partner checks
the call token and records its task's moves before it answers, the leader checks the answer's
signature; records are queued, so a kit phase (its warm-up too) lasts until the hub holds
every record of its calls (:class:`Recorded`), and its calls/s is over that whole time. Each
phase says what the hub process spent: CPU time (``/proc``) and SQL statements (counted by
``bench.p2p.hub``), per record for the kit; and the CPU a call of the caller (this process),
the target's server process and the hub (``cpu_ms_per_call``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from agenthub import Agent
from app.stopping import run_until_signalled
from bench import harness
from bench.p2p.records import (
    HubMeter,
    Reading,
    cpu_per_call,
    partner_recorder,
    spent,
    tasks_short_of_records,
)
from bench.p2p.servers import Servers, start_servers
from bench.p2p.targets import (
    Call,
    Kit,
    Targets,
    handshake_ms,
    open_targets,
    refused_calls,
    tasks_at_hub,
)

CONCURRENCY = 16
DEFAULT_SECONDS = 10.0  # at c16 the recorder's back-pressure must act within a phase
QUICK_SECONDS = 2.0
WARMUP_SECONDS = 1.0
PHASE_GRACE_SECONDS = 60.0
RECORD_WAIT_SECONDS = 15.0
SETTLE_SECONDS = 180.0
CONFIRM_PAUSE_SECONDS = 0.05
BASELINES = ("bare_httpx", "a2a_sdk")


@dataclass
class Recorded:
    """How a kit target's phase ends: when the hub holds every record of its calls.

    The leader's recorder flushed (every record it queued acknowledged by the hub), the
    partner's too (``bench.p2p.partner``'s control port), then the hub confirming it holds
    no task of theirs short of its last record."""

    meter: HubMeter
    operator: httpx.AsyncClient
    leader: Agent | None  # None: the caller records nothing (an a2a-sdk client)
    partner_control: int
    where: dict[str, str]

    async def recorded(self) -> int:
        """Records the hub has acknowledged so far, the leader's and the partner's."""
        partner: int = (await partner_recorder(self.partner_control))["recorded"]
        return (self.leader.recorder.recorded if self.leader else 0) + partner

    async def settle(self) -> tuple[Reading, int]:
        """Wait until the hub holds every record queued so far; the reading taken then (before
        the hub's confirming query, so its cost is not the phase's) and the queries asked."""
        async with asyncio.timeout(SETTLE_SECONDS):
            await asyncio.gather(partner_recorder(self.partner_control, "flush"), self._flush())
            asked = 0
            while True:
                reading = self.meter.read()
                asked += 1
                if not await tasks_short_of_records(self.operator, **self.where):
                    return reading, asked
                await asyncio.sleep(CONFIRM_PAUSE_SECONDS)

    async def _flush(self) -> None:
        if self.leader is not None:
            await self.leader.recorder.flush(SETTLE_SECONDS)


async def phase(
    call: Call,
    concurrency: int,
    seconds: float,
    meter: HubMeter,
    recorded: Recorded | None = None,
) -> dict[str, Any]:
    """``concurrency`` callers, each calling again until ``seconds`` passed; with
    ``recorded``, the phase lasts until the hub holds every record of its calls, and its
    rate is its calls over that whole time."""
    latencies: list[float] = []
    deadline = 0.0  # from the meter's first reading: the phase lasts ``seconds`` at least

    async def caller() -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await call()
            latencies.append((time.perf_counter() - started) * 1000)

    records_before = await recorded.recorded() if recorded else 0
    before = meter.read()
    deadline = before.at + seconds
    await asyncio.wait_for(
        asyncio.gather(*(caller() for _ in range(concurrency))), seconds + PHASE_GRACE_SECONDS
    )
    answered = time.perf_counter()
    asked = 0
    if recorded is None:
        after = meter.read()
    else:
        after, asked = await recorded.settle()
    elapsed = after.at - before.at
    calls = len(latencies)
    numbers: dict[str, Any] = {
        "p50_ms": round(harness.percentile(latencies, 50), 2),
        "p99_ms": round(harness.percentile(latencies, 99), 2),
        "rps": round(calls / elapsed, 1),
        "calls": calls,
    }
    numbers["cpu_ms_per_call"] = cpu_per_call(before, after, calls)
    if recorded is None:
        numbers["hub"] = spent(before, after, 0)  # the hub idles: what it spent anyway
        return numbers
    records = await recorded.recorded() - records_before
    numbers.update(
        {
            "answered_rps": round(calls / (answered - before.at), 1),
            "drain_ms": round((after.at - answered) * 1000, 1),
            "seconds": round(elapsed, 2),
            "records_per_call": round(records / calls, 2) if calls else None,
            "hub": spent(before, after, records),
            "hub_queries_to_confirm": asked,
        }
    )
    return numbers


async def measure(
    calls: dict[str, Call],
    seconds: float,
    meter: HubMeter,
    recorded: dict[str, Recorded],
    servers: Servers,
) -> dict[str, dict[str, Any]]:
    """The baselines first, on an idle hub (each warmed up, then at concurrency 1, then at
    16); then each kit target the same way, its warm-up's records drained before it starts."""
    results: dict[str, dict[str, Any]] = {name: {} for name in calls}
    order = [*(b for b in BASELINES if b in calls), *(n for n in calls if n not in BASELINES)]
    for name in order:
        call, settle = calls[name], recorded.get(name)
        meter.server_pid = servers.pids[name]
        await phase(call, CONCURRENCY, min(WARMUP_SECONDS, seconds), meter, settle)
        for label, concurrency in (("c1", 1), (f"c{CONCURRENCY}", CONCURRENCY)):
            results[name][label] = await phase(call, concurrency, seconds, meter, settle)
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


def recorded_targets(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The record's targets side by side: the kit's ``rpc`` over mutual TLS, recorded (the rate
    over the time until the hub held every record), against a2a-sdk on an idle hub; and what
    the hub spent per record in that c16 phase."""
    high = f"c{CONCURRENCY}"
    kit, a2a = results["kit_rpc_mtls"], results["a2a_sdk"]
    hub = kit[high]["hub"]
    return {
        f"kit_mtls_{high}_recorded_rps": kit[high]["rps"],
        f"a2a_{high}_rps": a2a[high]["rps"],
        f"kit_mtls_{high}_rps_over_a2a_rps": _ratio(kit[high]["rps"], a2a[high]["rps"]),
        "kit_mtls_c1_p50_ms": kit["c1"]["p50_ms"],
        "a2a_c1_p50_ms": a2a["c1"]["p50_ms"],
        "kit_mtls_c1_p50_over_a2a_c1_p50": _ratio(kit["c1"]["p50_ms"], a2a["c1"]["p50_ms"]),
        f"kit_mtls_{high}_p99_ms": kit[high]["p99_ms"],
        f"a2a_{high}_p50_ms": a2a[high]["p50_ms"],
        f"kit_mtls_{high}_p99_over_a2a_{high}_p50": _ratio(
            kit[high]["p99_ms"], a2a[high]["p50_ms"]
        ),
        "hub_cpu_ms_per_p2p_record": hub["hub_cpu_ms_per_record"],
        "sql_statements_per_task_record": hub["statements_per_record"],
        "sql_commits_per_task_record": hub["commits_per_record"],
    }


def verdict(ratio: dict[str, dict[str, float]]) -> dict[str, bool]:
    """The first targets: p50 at most 2x bare httpx, and faster than a2a-sdk."""
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


async def _awaiting(kit: Kit) -> int:
    await kit.agent.recorder.flush(RECORD_WAIT_SECONDS)
    recorded = await tasks_at_hub(kit)
    deadline = time.monotonic() + RECORD_WAIT_SECONDS  # the partner's last records may lag
    while recorded < kit.calls and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        recorded = await tasks_at_hub(kit)
    return recorded


async def checks(targets: Targets, servers: Servers) -> dict[str, Any]:
    """What shows the kit calls were real: refused without proof, every task at the hub."""
    kit, kit_mtls = targets.kit, targets.kit_mtls
    partners = [
        await partner_recorder(port, "flush")
        for port in (servers.partner_control, servers.tls_partner_control)
    ]
    return {
        "kit_calls": kit.calls,
        "kit_tasks_awaiting_completion_at_hub": await _awaiting(kit),
        "kit_mtls_calls": kit_mtls.calls,
        "kit_mtls_tasks_awaiting_completion_at_hub": await _awaiting(kit_mtls),
        "kit_record_failures": len(kit.agent.recorder.failures)
        + len(kit_mtls.agent.recorder.failures),
        "partner_record_failures": sum(p["failures"] for p in partners),
        "answer_signatures_checked": kit.agent.leader.verify_answers,
        "partner_refuses": await refused_calls(kit, servers.partner_url),
        # new A2A tasks the partner refused while its record at the hub caught up (sent again)
        "kit_a2a_refused_record_behind": targets.kit_a2a.behind,
    }


def _settles(
    targets: Targets, servers: Servers, meter: HubMeter, operator: httpx.AsyncClient
) -> dict[str, Recorded]:
    """How each kit target's phases end (see :class:`Recorded`)."""
    kit, kit_mtls = targets.kit, targets.kit_mtls
    return {
        "kit_rpc": Recorded(
            meter, operator, kit.agent, servers.partner_control, {"sessionId": kit.session_id}
        ),
        "kit_rpc_mtls": Recorded(
            meter,
            operator,
            kit_mtls.agent,
            servers.tls_partner_control,
            {"sessionId": kit_mtls.session_id},
        ),
        # a new bridged session per call, all with the plain partner in them
        "kit_a2a": Recorded(
            meter, operator, None, servers.partner_control, {"agentId": servers.partner_id}
        ),
    }


async def run(seconds: float, only: frozenset[str] | None = None) -> dict[str, Any]:
    """Start the servers, time the targets for ``seconds`` per phase (``only``: these kit
    targets, beside the baselines), stop everything."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, harness.processes() as started:
        servers = await start_servers(Path(tmp), started)
        meter = HubMeter(servers.hub_pid, servers.sql_counts)
        async with AsyncExitStack() as stack:
            stack.callback(meter.close)
            targets = await open_targets(servers, stack)
            operator = await stack.enter_async_context(
                httpx.AsyncClient(
                    base_url=servers.hub_url,
                    headers={"Authorization": f"Bearer {harness.OPERATOR_TOKEN}"},
                    timeout=RECORD_WAIT_SECONDS,
                )
            )
            settles = _settles(targets, servers, meter, operator)
            calls = {
                name: call
                for name, call in targets.calls.items()
                if only is None or name in only or name in BASELINES
            }
            results = await measure(calls, seconds, meter, settles, servers)
            if only is not None:
                return {
                    **_head(load_before, seconds),
                    **results,
                    "rps_over_a2a_rps": {
                        name: {
                            label: _ratio(numbers["rps"], results["a2a_sdk"][label]["rps"])
                            for label, numbers in results[name].items()
                        }
                        for name in results
                        if name not in BASELINES
                    },
                }
            checked = await checks(targets, servers)
            handshake = await handshake_ms(targets.kit_mtls, servers.tls_partner_url)
    ratio = ratios(results)
    return {
        **_head(load_before, seconds),
        "concurrency": CONCURRENCY,
        "measured": (
            "baselines first, on an idle hub; a kit phase ends when the hub holds every "
            "record of its calls (leader and partner recorders flushed, the hub holding no "
            "task short of its last record), and its rps is calls over that whole time"
        ),
        **results,
        "recorded_targets": recorded_targets(results),
        "ratios": ratio,
        "target": verdict(ratio),
        "mtls_handshake": handshake,
        "checks": checked,
    }


def _head(load_before: tuple[float, float, float], seconds: float) -> dict[str, Any]:
    """What every report opens with: the machine, its load before and after, the phases."""
    return {
        "machine": harness.machine(),
        "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "seconds_per_phase": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.p2p", description=__doc__)
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="per phase")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SECONDS:g} s per phase")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument(
        "--only",
        help="comma-separated kit targets to time (kit_rpc, kit_rpc_mtls, kit_a2a) beside the "
        "baselines; the report then has their figures and their ratios to a2a-sdk alone",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="every process traces, every span sampled, OTLP/HTTP to a sink that keeps "
        "nothing (bench/p2p/otlp_sink.py): what tracing costs (needs agenthub[otel])",
    )
    args = parser.parse_args(argv)
    seconds = QUICK_SECONDS if args.quick else args.seconds
    with harness.processes() as started:
        if args.trace:
            _trace_everything(started)
        only = frozenset(args.only.split(",")) if args.only else None
        report = run_until_signalled(run(seconds, only))
    report["traced"] = bool(args.trace)
    return harness.publish_report(report, args.json)


def _trace_everything(started: list[Any]) -> None:
    """Start the sink; every process started from now on (they inherit the environment) and
    this one trace, sampling every span."""
    import agenthub.tracing as tracing

    port = harness.free_port()
    started.append(harness.start(harness.uvicorn_args("bench.p2p.otlp_sink:app", port)))
    os.environ.update(
        {
            "OTEL_TRACES_EXPORTER": "otlp",
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
            "OTEL_TRACES_SAMPLER": "always_on",
        }
    )
    tracing.configure("bench-p2p-leader")


if __name__ == "__main__":
    sys.exit(main())
