"""The ingest benchmark runs end to end, briefly (numbers: BENCHMARKS.md, not here)."""

from __future__ import annotations

import pytest

from bench.ingest.__main__ import run

pytestmark = pytest.mark.slow


async def test_every_answered_post_is_stored_and_both_servers_are_measured() -> None:
    report = await run(seconds=1, connections=4, loaders=1)

    for target in ("bare", "hub", "hub_one_connection"):
        numbers = report[target]
        assert numbers["posts"] > 0, target
        assert numbers["p99_ms"] >= numbers["p50_ms"] > 0, target
    # each 201 took one seq of the group: nothing answered was lost, nothing extra was stored
    assert report["hub_messages_stored"] == report["hub_posts_answered_201"]
    assert report["hub_over_bare"] > 0
