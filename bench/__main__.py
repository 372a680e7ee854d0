"""``python -m bench``: every benchmark, each beside its baseline in the same run.

    python -m bench [--quick] [--postgres ADMIN_URL] [--out DIR] [--only fanout,ingest,...]

Runs group fan-out, ingest (SQLite; PostgreSQL with ``--postgres``), point-to-point and
discovery one after the other (never two at once: they share the cores), writes each JSON
report to ``--out`` (default ``bench/results``) and prints the targets (BENCHMARKS.md,
"Summary") with the ratios measured here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.discovery.__main__ import main as discovery
from bench.fanout.__main__ import main as fanout
from bench.harness import ROOT, machine
from bench.ingest.__main__ import main as ingest
from bench.p2p.__main__ import main as p2p

Main = Callable[[list[str] | None], int]


def steps(postgres: str | None) -> list[tuple[str, Main, list[str]]]:
    pg = ["--postgres", postgres] if postgres else []
    return [
        ("fanout", fanout, []),
        ("ingest", ingest, []),
        *([("ingest-postgres", ingest, pg)] if postgres else []),
        ("p2p", p2p, []),
        ("discovery", discovery, pg),
    ]


def _check(label: str, value: float | None, target: str, ok: bool) -> str:
    shown = "n/a" if value is None else f"{value:g}"
    return f"{'PASS' if ok else 'MISS'}  {label}: {shown} (target {target})"


def verdicts(reports: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    if "fanout" in reports and "1000" in reports["fanout"]["sizes"]:
        ratios = reports["fanout"]["sizes"]["1000"]["ratios"]
        sse, raw = ratios["hub_over_sse_starlette"], ratios["hub_over_raw"]
        lines.append(_check("fan-out N=1000, hub / sse-starlette", sse, ">= 2.5", sse >= 2.5))
        lines.append(_check("fan-out N=1000, hub / raw ASGI", raw, ">= 0.9", raw >= 0.9))
        paced = reports["fanout"]["sizes"]["1000"]["hub"]["paced"]["p99_ms"]
        lines.append(_check("fan-out N=1000, paced p99 ms", paced, "< 50", paced < 50))
    if "fanout" in reports and "held" in reports["fanout"]:
        held = reports["fanout"]["held"]["hub"]
        n, rss = held["streams"], held["rss_kib_per_stream"]
        every = all(held[p]["deliveries"] == held[p]["expected"] for p in ("burst", "paced"))
        lines.append(_check(f"{n} streams held, all delivered once", int(every), "1", every))
        lines.append(_check(f"hub RSS KiB per stream, {n} open", rss, "<= 20", rss <= 20))
        worst = max(v for v in held["healthz_p99_ms"].values() if v is not None)
        lines.append(_check(f"/healthz p99 ms, {n} streams open", worst, "< 20", worst < 20))
    for n in ("10", "100"):  # not bound by ingest (its capacity: 16 publishers)
        ratios = reports.get("fanout", {}).get("sizes", {}).get(n, {}).get("ratios", {})
        if (at16 := ratios.get("hub_over_sse_starlette@16")) is not None:
            label = f"fan-out N={n}, hub / sse-starlette, 16 publishers"
            lines.append(_check(label, at16, ">= 0.8", at16 >= 0.8))
            first = reports["fanout"]["sizes"][n]["hub"]["burst"].get("publishers", 4)
            at4 = ratios["hub_over_sse_starlette"]  # the round trip's share: no target
            lines.append(f"----  fan-out N={n}, hub / sse-starlette, {first} publishers: {at4:g}")
    if "fanout" in reports and "100" in reports["fanout"]["sizes"]:
        p99 = reports["fanout"]["sizes"]["100"]["hub"]["paced"]["p99_ms"]
        lines.append(_check("fan-out N=100, p99 publish->receive ms", p99, "< 100", p99 < 100))
    if "ingest" in reports:  # group posts one a request, session records batched
        ingest = reports["ingest"]
        rate = ingest["hub"]["posts_per_second"]
        ratio = ingest["hub_over_bare"]
        batched = ingest["session_task_reports"]["messages_per_second"]
        lines.append(_check("ingest SQLite, durable msgs/s", rate, ">= 1000", rate >= 1000))
        lines.append(
            _check("group posts one a request, hub / bare POST", ratio, ">= 0.4", ratio >= 0.4)
        )
        lines.append(
            _check("session records, batch endpoint, /s", batched, ">= 5000", batched >= 5000)
        )
    if "p2p" in reports:  # a recorded call over mutual TLS against a2a-sdk's
        t = reports["p2p"]["recorded_targets"]
        checks = [
            ("kit rpc mTLS c16 calls/s / a2a-sdk's", "kit_mtls_c16_rps_over_a2a_rps", ">= 0.8"),
            ("kit rpc mTLS c1 p50 / a2a-sdk's", "kit_mtls_c1_p50_over_a2a_c1_p50", "<= 1.5"),
            ("kit rpc mTLS c16 p99 / a2a-sdk's p50", "kit_mtls_c16_p99_over_a2a_c16_p50", "<= 4"),
            ("hub CPU ms per p2p record (c16)", "hub_cpu_ms_per_p2p_record", "<= 0.6"),
            ("SQL statements per task record (c16)", "sql_statements_per_task_record", "<= 1.5"),
        ]
        for label, key, target in checks:
            value = t[key]
            bound = float(target.split()[1])
            ok = value >= bound if target.startswith(">=") else value <= bound
            lines.append(_check(label, value, target, ok))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the short version of each")
    parser.add_argument("--postgres", help="an admin URL; fresh databases are made and dropped")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    parser.add_argument("--only", help="a comma-separated subset of the benchmarks")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = set(args.only.split(",")) if args.only else None
    reports: dict[str, dict[str, Any]] = {}
    for name, run, extra in steps(args.postgres):
        if wanted is not None and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        target = args.out / f"{name}.json"
        if run([*extra, *(["--quick"] if args.quick else []), "--json", str(target)]) != 0:
            return 1
        reports[name] = json.loads(target.read_text())
    print(f"\n{machine()}")
    for line in verdicts(reports):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
