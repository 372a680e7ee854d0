"""The limits benchmark runs end to end, small (numbers: BENCHMARKS.md, "Limits")."""

from __future__ import annotations

import pytest

from bench.harness import ROOT
from bench.limits.__main__ import partner_at_cap, replay_growth

pytestmark = pytest.mark.slow


async def test_a_partner_at_its_cap_refuses_the_next_start() -> None:
    report = await partner_at_cap(200)
    assert report["next_start_refused"] is True
    assert report["kib_per_task"] > 0


async def test_replaying_big_messages_to_readers_that_read_nothing_is_measured() -> None:
    report = await replay_growth(ROOT, readers=2, messages=4)
    assert report["rss_mib_peak"] >= report["rss_mib_before"] > 0
