"""ARCHITECTURE.md stays true: every file and folder it names exists, and the house it
describes has no circle of imports (type-only and function-local imports count)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
PACKAGES = ("app", "agenthub")


def test_every_path_the_architecture_names_exists() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    named = {
        token
        for token in re.findall(r"`([^`\s]+)`", text) + re.findall(r"<br/>([\w/]+\.py)", text)
        if "/" in token or token.endswith((".py", ".md"))
    }
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
