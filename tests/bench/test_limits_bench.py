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


async def test_the_revocation_list_is_measured_with_many_revoked() -> None:
    from bench.limits.__main__ import revocation_list

    report = await revocation_list(revoked=40, at_once=20, seconds=1)
    assert report["revoked"] == 40
    assert report["conditional_get_status"] == 304
    assert report["concurrent"]["server_errors"] == 0
    assert report["concurrent"]["answers"].get(200, 0) >= 20
