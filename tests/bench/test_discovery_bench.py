"""The discovery benchmark runs end to end on a small registry (numbers: BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from bench.discovery.__main__ import run
from bench.discovery.corpus import QUERIES, make_agents

pytestmark = pytest.mark.slow


def test_the_corpus_is_varied_and_labelled() -> None:
    agents = make_agents(400)
    assert len({a.description for a in agents}) > 300
    categories = {a.category for a in agents}
    assert {want for _, want in QUERIES} <= categories


async def test_ranked_search_beats_the_like_baseline_on_a_small_registry() -> None:
    report = await run(2_000, rounds=1, postgres=None)
    sqlite = report["sqlite"]
    ranked, like = sqlite["ranked"], sqlite["like"]
    assert ranked["samples"] == like["samples"] == len(QUERIES)
    assert ranked["precision_at_5"] > like["precision_at_5"]
    assert ranked["p50_ms"] > 0 and ranked["p99_ms"] >= ranked["p50_ms"]
