"""The kit stands alone: ``agenthub`` imports nothing of the hub (``app``) nor of the hub's
dependencies, so an agent's venv needs only the kit's own."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]
KIT = ROOT / "agenthub"
# what `pip install agenthub` brings (kit/pyproject.toml), by import name
KIT_IMPORTS = {
    "httpx",
    "httpcore",
    "pydantic",
    "cryptography",
    "jose",
    "starlette",
    "uvicorn",
    "orjson",
    "opentelemetry",  # opentelemetry-api (agenthub.tracing; the otel extra's SDK, lazily)
    "agenthub",
}
# the kit's extras: import name → (extra, the only package of the kit that may import it,
# the requirement of the extra that brings it)
KIT_EXTRAS = {
    "a2a": ("a2a", KIT / "a2a", "a2a-sdk"),
    "google": ("a2a", KIT / "a2a", "a2a-sdk"),  # protobuf, a2a-sdk's wire types
    "jwt": ("a2a", KIT / "a2a", "a2a-sdk"),  # PyJWT, a2a-sdk[signing]'s: card signatures
}
HUB_ONLY = {"app", "fastapi", "sqlalchemy", "sqlmodel", "alembic", "prometheus_client", "rich"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
    return names


def test_kit_imports_nothing_of_the_hub() -> None:
    offending = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in KIT.rglob("*.py")
        for name in _imports(path) & HUB_ONLY
    }
    assert offending == set()


def test_every_third_party_import_of_the_kit_is_a_kit_dependency() -> None:
    import sys

    third_party = {
        name
        for path in KIT.rglob("*.py")
        for name in _imports(path)
        if name not in sys.stdlib_module_names and name != "__future__"
    }
    assert third_party <= KIT_IMPORTS | KIT_EXTRAS.keys()
    declared = tomllib.loads((ROOT / "kit" / "pyproject.toml").read_text())["project"]
    wanted = " ".join(declared["dependencies"]).lower()
    for name in KIT_IMPORTS - {"agenthub", "jose"}:
        assert name in wanted, name
    assert "python-jose" in wanted


def test_an_extra_is_imported_only_by_its_own_package_and_declared() -> None:
    """``import agenthub`` works without the extras: only their own package imports them."""
    declared = tomllib.loads((ROOT / "kit" / "pyproject.toml").read_text())["project"]
    for name, (extra, home, requirement) in KIT_EXTRAS.items():
        outside = {
            str(path.relative_to(ROOT))
            for path in KIT.rglob("*.py")
            if home not in path.parents and name in _imports(path)
        }
        assert outside == set(), name
        assert any(r.startswith(requirement) for r in declared["optional-dependencies"][extra])
