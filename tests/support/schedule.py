"""The order pytest-xdist hands out test files in: the longest first.

`make test` gives each worker whole files (``--dist loadfile``, in collection order with
``--no-loadscope-reorder``). Taken alphabetically, a long file picked up last (the fuzzing, the
wheels' builds) ran on alone while the other workers had nothing left to do; taken longest
first, the short files fill in around the long ones at the end.

``FILE_SECONDS`` is what each file took on SQLite and on PostgreSQL (with Redis) in `make
pytest` on a 2-core machine, the mean of three runs of each; a file not in it, or under 10 s,
is taken as shorter than all that are. To measure again: ``make pytest
PYTEST_ARGS=--junitxml=sqlite-1.xml`` (and more), the same on PostgreSQL, then ``python -m
tests.support.schedule sqlite-*.xml -- postgresql-*.xml``.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest

# seconds on SQLite, on PostgreSQL
FILE_SECONDS = {
    "tests/contract/test_fuzz.py": (132, 194),
    "tests/packaging/test_wheels.py": (149, 0),
    "tests/api/test_task_batch.py": (34, 67),
    "tests/scale/test_replicas.py": (58, 56),
    "tests/scale/test_nginx.py": (56, 47),
    "tests/cli/test_commands.py": (38, 55),
    "tests/contract/test_clients.py": (41, 54),
    "tests/kit/test_patterns.py": (39, 45),
    "tests/cli/test_serve.py": (44, 38),
    "tests/kit/test_aip_conformance.py": (41, 41),
    "tests/bench/test_fanout_bench.py": (40, 34),
    "tests/bench/test_p2p_bench.py": (32, 39),
    "tests/docs/test_readme.py": (38, 36),
    "tests/groups/test_streams.py": (25, 38),
    "tests/kit/test_a2a_leader.py": (32, 38),
    "tests/groups/test_group_messages.py": (13, 32),
    "tests/cli/test_setting_errors.py": (24, 30),
    "tests/console/test_console_browser.py": (20, 30),
    "tests/demo/test_demo.py": (30, 28),
    "tests/kit/test_a2a_partner.py": (25, 30),
    "tests/bench/test_ingest_bench.py": (24, 28),
    "tests/kit/test_call_security.py": (19, 24),
    "tests/kit/test_notifications.py": (21, 18),
    "tests/api/test_tasks.py": (0, 19),
    "tests/kit/test_partner_limits.py": (13, 18),
    "tests/contract/test_openapi.py": (0, 17),
    "tests/api/test_gbz_elements.py": (0, 16),
    "tests/groups/test_speakers.py": (0, 16),
    "tests/services/test_stopping.py": (16, 11),
    "tests/bench/test_limits_bench.py": (12, 15),
    "tests/groups/test_flow_control.py": (0, 15),
    "tests/api/test_agents.py": (0, 14),
    "tests/api/test_operator.py": (10, 14),
    "tests/api/test_operator_events.py": (0, 13),
    "tests/kit/test_llm_adapter.py": (0, 12),
    "tests/cli/test_slow_clients.py": (0, 11),
    "tests/contract/test_docs.py": (0, 11),
    "tests/kit/test_acps_leader_conformance.py": (0, 11),
}

EVERYDAY_LEAVES_OUT = frozenset(
    {
        "tests/scale/test_replicas.py",
        "tests/scale/test_faults.py",
        "tests/cli/test_serve.py",
        "tests/cli/test_setting_errors.py",
        "tests/cli/test_commands.py",
        "tests/cli/test_signals.py",
        "tests/cli/test_slow_clients.py",
        "tests/services/test_stopping.py",
        "tests/store/test_postgres_restart.py",
        "tests/api/test_task_batch.py",
        "tests/kit/test_patterns.py",
        "tests/kit/test_aip_conformance.py",
        "tests/kit/test_a2a_leader.py",
        "tests/kit/test_a2a_partner.py",
        "tests/kit/test_a2a_conformance.py",
        "tests/kit/test_oauth_callers.py",
        "tests/kit/test_partner_limits.py",
        "tests/kit/test_call_security.py",
        "tests/kit/test_notifications.py",
        "tests/kit/test_acps_leader_conformance.py",
        "tests/kit/test_llm_adapter.py",
        "tests/contract/test_openapi.py",
    }
)
"""Files `make check` (the everyday loop: 60 s) leaves to `make test` as if marked slow: each
starts processes (hubs, Redis, the CLI) or runs agents end to end, for 8 s or more of a
worker's time (`make check PYTEST_ARGS=--durations=0`, 2 cores); CI runs them all."""


def leave_out_of_the_everyday_loop(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("::", 1)[0] in EVERYDAY_LEAVES_OUT:
            item.add_marker(pytest.mark.slow)


def longest_files_first(items: list[pytest.Item]) -> None:
    """Sort ``items`` by their file's seconds on this run's store, longest first; a file's own
    order is kept."""
    on_postgresql = os.environ.get("AGENTHUB_TEST_DATABASE_URL", "").startswith("postgresql")

    def seconds(item: pytest.Item) -> int:
        return FILE_SECONDS.get(item.nodeid.split("::", 1)[0], (0, 0))[on_postgresql]

    items.sort(key=lambda item: -seconds(item))


def measured(*junit_xml: Path) -> dict[str, int]:
    """Seconds per test file (10 or more), the mean over junit XML reports (``--junitxml``)."""
    seconds: Counter[str] = Counter()
    for report in junit_xml:
        for case in ElementTree.parse(report).iter("testcase"):
            parts = [p for p in case.get("classname", "").split(".") if p]  # tests.x.test_y[.C]
            while parts and not Path(*parts).with_suffix(".py").is_file():
                parts.pop()
            if parts:  # a module skipped whole has no classname
                seconds["/".join(parts) + ".py"] += float(case.get("time", 0)) / len(junit_xml)
    return {path: round(s) for path, s in seconds.most_common() if s >= 10}


if __name__ == "__main__":
    # python -m tests.support.schedule sqlite.xml [more.xml…] -- postgresql.xml [more.xml…]
    split = sys.argv.index("--")
    sqlite = measured(*map(Path, sys.argv[1:split]))
    postgresql = measured(*map(Path, sys.argv[split + 1 :]))
    for path in sorted(
        sqlite.keys() | postgresql.keys(),
        key=lambda p: (-max(sqlite.get(p, 0), postgresql.get(p, 0)), p),
    ):
        print(f'    "{path}": ({sqlite.get(path, 0)}, {postgresql.get(path, 0)}),')
