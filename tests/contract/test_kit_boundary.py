"""The kit stands alone: app/agent imports nothing of the hub but app.protocol."""

from __future__ import annotations

import ast
from pathlib import Path

KIT = Path(__file__).parents[2] / "app" / "agent"


def test_kit_imports_only_protocol_from_app() -> None:
    offending = []
    for path in KIT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("app.") and not name.startswith(("app.protocol", "app.agent")):
                    offending.append(f"{path.name}: {name}")
    assert offending == []
