"""The soak runs its whole mix for five minutes (``--minutes 5``, a smoke test):
nothing answered 5xx, no acknowledged post went undelivered, every kind of request ran, and
the plot is drawn. The hour's figures are in BENCHMARKS.md."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.soak.__main__ import main

pytestmark = pytest.mark.slow


@pytest.mark.skipif(
    bool(os.environ.get("AGENTHUB_TEST_DATABASE_URL")),
    reason="the soak's hub is on SQLite whatever the suite's store: CI's SQLite run has run it",
)
def test_five_minutes_of_the_mix(tmp_path: Path) -> None:
    report_file, plot_file = tmp_path / "soak.json", tmp_path / "soak.png"
    argv = ["--minutes", "5", "--streams", "50", "--posts", "2"]
    assert main([*argv, "--json", str(report_file), "--plot", str(plot_file)]) == 0
    report = json.loads(report_file.read_text())
    assert report["minutes"] == 5 and report["streams"] == 50
    verdict = report["verdict"]
    assert verdict["no_5xx"] and verdict["none_lost"], verdict
    assert verdict["transport_errors"] == 0, verdict
    kinds = {kind for row in report["rows"] for kind in row["p99_ms_by_kind"]}
    assert kinds >= {
        "group_post",
        "p2p_start",
        "p2p_complete",
        "token",
        "register",
        "deregister",
        "certify",
        "revoke",
        "storm",
    }, kinds
    assert all(row["posts"] > 0 and row["tasks"] > 0 for row in report["rows"])
    assert plot_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
