"""The kit's exception tree: every exception the kit defines for its users is a ``KitError``,
and the tree drawn in ``agenthub.errors`` names each one, and nothing that is not."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import agenthub
from agenthub import errors
from agenthub.errors import KitError


def _kit_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for module in pkgutil.walk_packages(agenthub.__path__, "agenthub."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.name
                and not name.startswith("_")
            ):
                found[name] = value
    return found


def _drawn() -> set[str]:
    assert errors.__doc__ is not None
    return set(re.findall(r"[├└]── (\w+)", errors.__doc__)) | {"KitError"}


def test_every_exception_of_the_kit_is_a_kit_error() -> None:
    outside = sorted(n for n, c in _kit_exceptions().items() if not issubclass(c, KitError))
    assert outside == []


def test_the_drawn_tree_names_every_kit_error_and_only_those() -> None:
    assert _drawn() == set(_kit_exceptions())


def test_each_class_in_the_drawing_sits_under_its_drawn_parent() -> None:
    """An indented line's class is a subclass of the line above it one level up."""
    assert errors.__doc__ is not None
    classes = _kit_exceptions()
    parents: list[str] = ["KitError"]
    for line in errors.__doc__.splitlines():
        match = re.match(r"^(\s*)((?:│   |    )*)[├└]── (\w+)", line)
        if match is None:
            continue
        depth = len(match.group(2)) // 4
        name = match.group(3)
        del parents[depth + 1 :]
        assert issubclass(classes[name], classes[parents[depth]]), (name, parents[depth])
        parents.append(name)
