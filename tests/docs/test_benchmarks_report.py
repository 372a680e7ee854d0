"""BENCHMARKS.md is a report for users: today's figures beside their baselines, short, with no
diary of how they were reached (that history is in CHANGELOG.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
REPORT = ROOT / "BENCHMARKS.md"
RESULTS = ROOT / "bench" / "results"
DIARY = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
    r"|thirteenth|fourteenth|this|last|next) session\b|\bissues? #?\d+|\bitem \d+|\bhelper\b"
    r"|\b(morning|afternoon|evening|night)\b",
    re.IGNORECASE,
)


def test_the_report_is_short() -> None:
    assert len(REPORT.read_text().splitlines()) < 300


def test_the_report_keeps_no_diary() -> None:
    text = REPORT.read_text()
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert all(not DIARY.search(h) for h in headings), [h for h in headings if DIARY.search(h)]
    assert not DIARY.search(text), DIARY.search(text)


def test_every_benchmark_has_its_section_and_its_figures_are_the_results() -> None:
    text = REPORT.read_text()
    for name in ("p2p", "fanout", "ingest", "discovery", "soak", "limits"):
        assert f"(`bench/{name}`)" in text, name
    p2p = json.loads((RESULTS / "p2p.json").read_text())["recorded_targets"]
    ingest = json.loads((RESULTS / "ingest.json").read_text())
    fanout = json.loads((RESULTS / "fanout.json").read_text())["sizes"]
    figures = {
        f"{p2p['kit_mtls_c16_recorded_rps']}",
        f"{p2p['a2a_c16_rps']}",
        f"{ingest['hub']['posts_per_second']:,}",
        f"{ingest['bare']['posts_per_second']:,}",
        f"{fanout['10']['hub']['burst@16']['deliveries_per_second']:,}",
        f"{fanout['1000']['hub']['burst']['deliveries_per_second']:,}",
    }
    assert all(figure in text for figure in figures), [f for f in figures if f not in text]
