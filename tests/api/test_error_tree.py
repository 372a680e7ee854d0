"""The hub's exception tree: every problem a client may get is a ``HubError`` subclass with a
code of its own, and the tree drawn in ``app.errors`` is the tree the code holds."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import app
from app import errors
from app.errors import HubError

# the classes a client sees under a status when nothing more specific applies
GENERIC = {"HubError", "BadRequest", "InvalidInput", "Unauthenticated", "Forbidden"}
GENERIC |= {"NotFound", "Conflict", "PayloadTooLarge", "RateLimited", "Unavailable"}


def _hub_errors() -> dict[str, type[HubError]]:
    found: dict[str, type[HubError]] = {}
    for module in pkgutil.walk_packages(app.__path__, "app."):
        if module.name.startswith("app.demo"):
            continue
        for name, value in vars(importlib.import_module(module.name)).items():
            if (
                inspect.isclass(value)
                and issubclass(value, HubError)
                and value.__module__ == module.name
            ):
                found[name] = value
    return found


def drawing() -> str:
    """The tree as ``app.errors`` draws it: class, status and code, and where it lives."""
    classes = _hub_errors()
    lines: list[str] = ["HubError"]

    def children(parent: type[HubError]) -> list[type[HubError]]:
        return sorted(
            (c for c in classes.values() if c.__bases__[0] is parent),
            key=lambda c: (c.__name__ not in GENERIC, c.status, c.code),
        )

    def draw(parent: type[HubError], prefix: str) -> None:
        kids = children(parent)
        for i, kid in enumerate(kids):
            last = i == len(kids) - 1
            home = "" if kid.__module__ == "app.errors" else kid.__module__.removeprefix("app.")
            head = f"{prefix}{'└── ' if last else '├── '}{kid.__name__}"
            tail = f"{kid.status} {kid.code}"
            lines.append(f"{head:<34}{tail:<32}{home}".rstrip())
            draw(kid, prefix + ("    " if last else "│   "))

    draw(HubError, "")
    return "\n".join(lines)


def test_every_hub_error_has_a_code_of_its_own() -> None:
    by_code: dict[str, list[str]] = {}
    for name, cls in _hub_errors().items():
        if cls is not HubError:  # its code is a default, for a subclass that sets none
            by_code.setdefault(cls.code, []).append(name)
    assert {c: n for c, n in by_code.items() if len(n) > 1} == {}
    assert len(by_code) > 90  # a specific code per domain error, not one per status


def test_the_drawn_tree_is_the_tree_of_the_code() -> None:
    assert errors.__doc__ is not None
    drawn = errors.__doc__.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    expected = "\n".join("    " + line for line in drawing().splitlines())
    assert drawn == expected, "\n" + drawing()


def test_the_hub_makes_no_generic_error() -> None:
    """Every raise names a specific error: a client (and a reader) decides by its code."""
    generic = "|".join(sorted(GENERIC))
    root = Path(app.__path__[0])
    found = [
        f"{path.relative_to(root.parent)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(rf"\b({generic})\(", line) and "class " not in line
    ]
    assert found == []
