"""ARCHITECTURE.md stays true: every file and folder it names exists, and the house it
describes has no circle of imports (type-only and function-local imports count)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
PACKAGES = ("app", "agenthub")


def _somewhere(name: str) -> list[str]:
    found = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob(name)]
    return [str(found[0].relative_to(ROOT))] if found else [name]


def test_every_path_the_architecture_names_exists() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    named: set[str] = set()
    for line in text.splitlines():
        tokens = re.findall(r"`([^`\s]+)`", line) + re.findall(r"<br/>([\w/]+\.py)", line)
        folders = re.findall(r"^\| `(app/\w+/)`(?:, `(app/\w+/)`)?", line)
        homes = [f for pair in folders for f in pair if f]
        for token in tokens:
            if "/" in token:
                named.add(token)
            elif token.endswith((".py", ".md")):
                # a table row names its folder first, then that folder's files by name;
                # elsewhere a bare name is a kind of file the nouns have (`routes.py`)
                named.update([f"{home}{token}" for home in homes] or _somewhere(token))
    assert len(named) > 30, named  # the walk-throughs name their files
    missing = sorted(
        p
        for p in named
        if not (ROOT / p.split("{")[0].rstrip("/")).exists() and not p.startswith(("/v1/", "POST"))
    )
    assert missing == []


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of this tree that ``path`` imports, anywhere in it."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def test_no_module_of_the_house_imports_one_that_imports_it_back() -> None:
    files = {_module_of(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    graph = {m: _imports(p, m, known) - {m} for m, p in files.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert cycles == []


# The hub's layers, top down, as ARCHITECTURE.md tells them: a file imports only files of its
# own layer or lower ones.
ENTRY, HTTP, SERVICES, TABLES, CORE = 4, 3, 2, 1, 0
_HTTP = {
    "app.deps",
    "app.auth.current",
    "app.checks",
    "app.console",
    "app.limits",
    "app.middleware",
}
_CORE = {"app", "app.config", "app.db", "app.errors", "app.pages", "app.prepared", "app.logs"}
_CORE |= {"app.stopping", "app.schema", "app.metrics", "app.http_protocol"}
_CORE |= {f"app.auth.{name}" for name in ("jws", "keys", "tokens", "ca")} | {"app.auth"}


def _layer(module: str) -> int:
    if module in ("app.cli", "app.main", "app.server") or module.startswith("app.demo"):
        return ENTRY
    if module.endswith("routes") or module in _HTTP or module.startswith("app.api"):
        return HTTP
    if module == "app.streams.sse":
        return HTTP
    if module.endswith((".models", "_tables")) or module.startswith("app.models"):
        return TABLES
    if module in ("app.tables",):
        return TABLES
    if (
        module in _CORE
        or module.startswith(("app.broker", "app.core"))
        or module.endswith(".errors")
    ):
        return CORE
    return SERVICES


def test_no_file_of_the_hub_imports_one_of_a_higher_layer() -> None:
    files = {_module_of(p): p for p in (ROOT / "app").rglob("*.py")}
    known = set(files)
    upward = sorted(
        f"{module} -> {target}"
        for module, path in files.items()
        for target in _imports(path, module, known)
        if _layer(target) > _layer(module)
    )
    assert upward == []
    # the layers are real: each holds files, and the routes sit above the services
    assert {_layer(m) for m in files} == {ENTRY, HTTP, SERVICES, TABLES, CORE}
    assert _layer("app.groups.routes") > _layer("app.groups.service") > _layer("app.groups.models")


def _reached(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    seen, todo = set(start), list(start)
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_core_imports_no_noun() -> None:
    """``app/core`` (the unit of work, the outbox, the stored messages) is what every noun
    writes through: however far its imports go, they reach no noun's folder, only the
    store, the broker and the column types under it."""
    files = {_module_of(p): p for p in (ROOT / "app").rglob("*.py")}
    known = set(files)
    graph = {m: _imports(p, m, known) for m, p in files.items()}
    core = {m for m in files if m.startswith("app.core")}
    assert {"app.core.unit_of_work", "app.core.outbox", "app.core.models"} <= core
    reached = _reached(graph, core)
    below = ("app.core", "app.broker", "app.models")
    nouns = sorted(m for m in reached if m.count(".") > 1 and not m.startswith(below))
    assert nouns == []


def test_the_engine_and_the_groups_import_no_service_that_builds_on_them() -> None:
    """The record engine fires no trigger itself (``app.main`` hands ``Ingest`` the
    triggers' after-COMMIT step), and a group's services write its memberships
    themselves (``groups/membership.py``): the membership routes build on the groups, not
    the other way round."""
    files = {_module_of(p): p for p in (ROOT / "app").rglob("*.py")}
    known = set(files)
    imports = sorted(
        f"{module} -> {target}"
        for module, path in files.items()
        for target in _imports(path, module, known)
        if (
            module.startswith("app.records.") and target.startswith(("app.triggers", "app.members"))
        )
        or (module.startswith("app.groups.") and target.startswith("app.members"))
    )
    assert imports == []


def _room(module: str) -> str:
    """A folder of ``app/`` is one room, and so is a file of its own."""
    return module.split(".")[1] if module.count(".") else module


def _house() -> tuple[list[str], set[tuple[str, str]]]:
    """ARCHITECTURE.md's rooms, top down, and the imports it names as running up."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text.split("## The house, folder by folder", 1)[1].split("\n## ", 1)[0]
    rooms = re.compile(r"`app/(\w+)(?:\.py|/)`")
    order = next(rooms.findall(p) for p in section.split("\n\n") if p.startswith("`app/"))
    named: set[tuple[str, str]] = set()
    for item in section.split("\n- ")[1:]:
        upper, _, lower = item.split(":", 1)[0].partition(" → ")
        named |= {(a, b) for a in rooms.findall(upper) for b in rooms.findall(lower)}
    return order, named


def test_the_folders_import_down_the_house_but_for_those_named() -> None:
    files = {_module_of(p): p for p in (ROOT / "app").rglob("*.py")}
    known = set(files)
    order, named = _house()
    assert sorted(order) == sorted({_room(m) for m in files} - {"app"})
    floor = {room: -n for n, room in enumerate(order)}
    upward = {
        (_room(module), _room(target))
        for module, path in files.items()
        for target in _imports(path, module, known)
        if _room(target) != "app" and floor[_room(target)] > floor[_room(module)]
    }
    assert sorted(upward) == sorted(named)
    assert len(named) <= 12


def test_a_noun_keeps_its_route_service_and_tables_together() -> None:
    for noun in ("agents", "certificates", "groups", "sessions", "tasks"):
        assert {"routes.py", "service.py", "models.py"} <= {
            p.name for p in (ROOT / "app" / noun).glob("*.py")
        }, noun
    assert not (ROOT / "app" / "services").exists()
    assert not (ROOT / "app" / "api" / "routes").exists()


MODULE_LINES, CLASS_LINES = 360, 260
"""Rooms of a size a reader can hold: past these, a module or class says why it is kept
whole, in a docstring paragraph that begins ``Kept whole:``."""
KEPT_WHOLE = "Kept whole:"


def test_a_big_module_or_class_says_why_it_is_kept_whole() -> None:
    unexplained, stale = [], []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            text = path.read_text()
            tree = ast.parse(text)
            rooms: list[tuple[str, int, int, str | None]] = [
                (
                    str(path.relative_to(ROOT)),
                    len(text.splitlines()),
                    MODULE_LINES,
                    ast.get_docstring(tree),
                ),
            ]
            rooms += [
                (
                    f"{path.relative_to(ROOT)}:{node.name}",
                    node.end_lineno - node.lineno + 1,
                    CLASS_LINES,
                    ast.get_docstring(node),
                )
                for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and node.end_lineno is not None
            ]
            for name, size, bound, doc in rooms:
                says = doc is not None and KEPT_WHOLE in doc
                if size > bound and not says:
                    unexplained.append(f"{name} ({size} lines)")
                if says and size <= bound:
                    stale.append(name)
    assert unexplained == []
    assert stale == []


def test_tests_reach_the_hub_through_its_seams() -> None:
    """Routes take what they need of the app from ``app/deps.py``, and tests from
    ``tests/support/parts.py``: nobody else reads ``app.state``."""
    pattern = re.compile(
        r"\bstate\.(settings|keys|metrics|broker|presence|operator_feed|"
        r"session_factory|ingest|engine|reranker|rates|admission|ca|"
        r"revocation_lists|send_watchdog|schema_ready)\b|app\.state\b"
    )
    allowed = {"app/main.py", "app/deps.py", "tests/support/parts.py"}
    allowed.add(str(Path(__file__).relative_to(ROOT)))  # this test names the pattern
    readers = sorted(
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("app", "tests")
        for path in (ROOT / folder).rglob("*.py")
        if str(path.relative_to(ROOT)) not in allowed
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    )
    assert readers == []
