"""The order pytest-xdist hands out test files in: the longest first.

`make test` gives each worker whole files (``--dist loadfile``, in collection order with
``--no-loadscope-reorder``). Taken alphabetically, a long file picked up last (the fuzzing, the
wheels' builds) ran on alone while the other workers had nothing left to do; taken longest
first, the short files fill in around the long ones at the end.

``FILE_SECONDS`` is what each file took on SQLite and on PostgreSQL (with Redis), in a 4-worker
run on a 2-core machine; a file not in it, or under 10 s, is taken as shorter than all that
are. To measure again: ``make pytest PYTEST_ARGS=--junitxml=sqlite.xml``, the same on
PostgreSQL into postgresql.xml, then ``python -m tests.support.schedule sqlite.xml
postgresql.xml``.
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
    "tests/contract/test_fuzz.py": (137, 265),
    "tests/packaging/test_wheels.py": (182, 0),
    "tests/api/test_task_batch.py": (36, 104),
    "tests/cli/test_commands.py": (40, 84),
    "tests/contract/test_clients.py": (51, 79),
    "tests/scale/test_replicas.py": (61, 70),
    "tests/scale/test_nginx.py": (67, 65),
    "tests/groups/test_streams.py": (20, 56),
    "tests/groups/test_group_messages.py": (18, 53),
    "tests/cli/test_setting_errors.py": (26, 52),
    "tests/bench/test_fanout_bench.py": (51, 40),
    "tests/kit/test_patterns.py": (51, 51),
    "tests/kit/test_a2a_leader.py": (29, 50),
    "tests/bench/test_ingest_bench.py": (23, 47),
    "tests/bench/test_p2p_bench.py": (34, 47),
    "tests/kit/test_aip_conformance.py": (45, 44),
    "tests/cli/test_serve.py": (42, 38),
    "tests/console/test_console_browser.py": (20, 41),
    "tests/docs/test_readme.py": (38, 41),
    "tests/kit/test_a2a_partner.py": (30, 35),
    "tests/contract/test_openapi.py": (12, 34),
    "tests/demo/test_demo.py": (33, 33),
    "tests/api/test_tasks.py": (0, 32),
    "tests/kit/test_call_security.py": (19, 30),
    "tests/api/test_operator.py": (18, 24),
    "tests/kit/test_notifications.py": (20, 24),
    "tests/groups/test_speakers.py": (0, 23),
    "tests/api/test_gbz_elements.py": (0, 22),
    "tests/bench/test_limits_bench.py": (13, 22),
    "tests/groups/test_flow_control.py": (0, 22),
    "tests/kit/test_partner_limits.py": (15, 22),
    "tests/api/test_agents.py": (11, 19),
    "tests/api/test_operator_events.py": (0, 16),
    "tests/contract/test_docs.py": (0, 16),
    "tests/kit/test_llm_adapter.py": (0, 16),
    "tests/cli/test_slow_clients.py": (0, 15),
    "tests/kit/test_p2p.py": (0, 14),
    "tests/groups/test_membership.py": (0, 13),
    "tests/kit/test_acps_leader_conformance.py": (11, 13),
    "tests/services/test_stopping.py": (13, 0),
    "tests/api/test_answers.py": (0, 12),
    "tests/api/test_auth.py": (0, 12),
    "tests/api/test_poison.py": (0, 10),
}


def longest_files_first(items: list[pytest.Item]) -> None:
    """Sort ``items`` by their file's seconds on this run's store, longest first; a file's own
    order is kept."""
    on_postgresql = os.environ.get("AGENTHUB_TEST_DATABASE_URL", "").startswith("postgresql")

    def seconds(item: pytest.Item) -> int:
        return FILE_SECONDS.get(item.nodeid.split("::", 1)[0], (0, 0))[on_postgresql]

    items.sort(key=lambda item: -seconds(item))


def measured(junit_xml: Path) -> dict[str, int]:
    """Seconds per test file (10 or more) in a junit XML report (pytest's ``--junitxml``)."""
    seconds: Counter[str] = Counter()
    for case in ElementTree.parse(junit_xml).iter("testcase"):
        parts = [p for p in case.get("classname", "").split(".") if p]  # tests.x.test_y[.Class]
        while parts and not Path(*parts).with_suffix(".py").is_file():
            parts.pop()
        if parts:  # a module skipped whole has no classname
            seconds["/".join(parts) + ".py"] += float(case.get("time", 0))
    return {path: round(s) for path, s in seconds.most_common() if s >= 10}


if __name__ == "__main__":
    sqlite, postgresql = measured(Path(sys.argv[1])), measured(Path(sys.argv[2]))
    for path in sorted(
        sqlite.keys() | postgresql.keys(),
        key=lambda p: (-max(sqlite.get(p, 0), postgresql.get(p, 0)), p),
    ):
        print(f'    "{path}": ({sqlite.get(path, 0)}, {postgresql.get(path, 0)}),')
