"""CONFORMANCE.md is kept honest: a row for every clause, a known status, and tests that exist.

The clauses a row is owed are listed here, as data: GB/Z 185.6-2026's normative clauses
(§5 to §8, Tables 1 to 5, Annex A), its informative Annex B, the sections of ACPs AIP v02.02 the kit
implements, and the Internet of Agents mechanisms the hub takes from the paper. A row names its
tests by pytest node id; each must be a test function (or method) defined in that file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parents[2]
CONFORMANCE = ROOT / "CONFORMANCE.md"

GBZ_CLAUSES = (
    "GB/Z §5",
    "GB/Z §6.1",
    "GB/Z §6.2",
    "GB/Z §6.3",
    "GB/Z §6.4",
    "GB/Z §7.1",
    "GB/Z Table 1 #1",
    "GB/Z Table 1 #2",
    "GB/Z Table 1 #3",
    "GB/Z Table 1 #4",
    "GB/Z Table 1 #5",
    "GB/Z Table 1 #6",
    "GB/Z §7.3 Table 2",
    "GB/Z §7.4 Table 3",
    "GB/Z §7.5 Table 4",
    "GB/Z §7.6 Table 5",
    "GB/Z §8.1",
    "GB/Z §8.2 Fig. 5",
    "GB/Z §8.3 Fig. 6",
    "GB/Z A.1",
    "GB/Z A.2",
    "GB/Z A.3",
    "GB/Z B.1",
    "GB/Z B.2",
    "GB/Z B.3",
    "GB/Z B.4",
)
AIP_CLAUSES = tuple(
    f"AIP §{section}"
    for section in (
        "3.1",
        "3.2",
        "4.2",
        "4.3",
        "4.4",
        "4.5",
        "4.6",
        "4.7",
        "5.1",
        "5.2",
        "6.0",
        "6.1",
        "6.2",
        "6.3",
        "7.0",
        "7.1",
        "7.2",
    )
)
IOA_CLAUSES = (
    "IoA registry and discovery",
    "IoA nested teams",
    "IoA conversation flow control",
    "IoA speaker selection",
    "IoA pause and trigger",
)
A2A_CLAUSES = (
    "A2A Agent Card",
    "A2A SendMessage",
    "A2A SendStreamingMessage",
    "A2A GetTask, CancelTask, SubscribeToTask",
    "A2A push notifications",
    "A2A authentication",
    "A2A JSON-RPC envelope",
    "A2A signed cards",
    "A2A conformance against the reference",
    "A2A client",
    "A2A transports",
)
CLAUSES = GBZ_CLAUSES + AIP_CLAUSES + IOA_CLAUSES + A2A_CLAUSES
STATUSES = ("met", "partial", "not applicable")
ROW = re.compile(r"^\|(?P<cells>.*)\|\s*$", re.M)
NODE_ID = re.compile(r"tests/[\w/]+\.py::[\w:]+(?:\[[^\]`]*\])?")


@dataclass
class Row:
    clause: str
    requirement: str
    status: str
    tests: list[str]
    line: int


def rows() -> list[Row]:
    text = CONFORMANCE.read_text(encoding="utf-8")
    found = []
    for match in ROW.finditer(text):
        cells = [cell.strip() for cell in match["cells"].split("|")]
        if len(cells) != 4 or cells[0] in ("clause", "") or set(cells[0]) <= {"-", ":"}:
            continue
        line = text.count("\n", 0, match.start()) + 1
        found.append(Row(cells[0], cells[1], cells[2], NODE_ID.findall(cells[3]), line))
    return found


@cache
def defined_tests(path: Path) -> frozenset[str]:
    """``name`` and ``Class::name`` for every test function the file defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}::{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return frozenset(name for name in names if name.rsplit("::", 1)[-1].startswith("test_"))


def test_every_clause_has_exactly_one_row() -> None:
    clauses = [row.clause for row in rows()]
    missing = [clause for clause in CLAUSES if clause not in clauses]
    assert not missing, f"CONFORMANCE.md has no row for {missing}"
    repeated = sorted({clause for clause in clauses if clauses.count(clause) > 1})
    assert not repeated, f"CONFORMANCE.md has more than one row for {repeated}"
    unknown = [clause for clause in clauses if clause not in CLAUSES]
    assert not unknown, f"rows for clauses this test does not list: {unknown}"


def test_every_status_is_known_and_every_partial_says_why() -> None:
    for row in rows():
        status = row.status.lstrip("*").lower()
        kind = next((s for s in STATUSES if status.startswith(s)), None)
        assert kind, f"line {row.line}: status {row.status!r} is none of {STATUSES}"
        if kind != "met":
            reason = status.removeprefix(kind).strip(" *:—-")
            assert len(reason) >= 20, f"line {row.line}: {kind} without its reason"


def test_every_row_that_claims_anything_names_tests() -> None:
    for row in rows():
        if not row.status.lstrip("*").lower().startswith("not applicable"):
            assert row.tests, f"line {row.line} ({row.clause}) names no test"


def test_every_test_a_row_names_exists() -> None:
    absent = []
    for row in rows():
        for node_id in row.tests:
            path, name = node_id.split("::", 1)
            name = name.split("[", 1)[0]
            file = ROOT / path
            if not file.is_file() or name not in defined_tests(file):
                absent.append(f"line {row.line}: {node_id}")
    assert not absent, "CONFORMANCE.md names tests that do not exist:\n" + "\n".join(absent)


def test_the_checks_catch_a_missing_test(tmp_path: Path) -> None:
    """The existence check itself can fail: a name the file does not define is absent."""
    file = tmp_path / "test_x.py"
    file.write_text("def test_here():\n    pass\n\nclass TestK:\n    def test_m(self): ...\n")
    assert defined_tests(file) == {"test_here", "TestK::test_m"}
    assert "test_gone" not in defined_tests(file)
