"""The committed OpenAPI document is current, and its operation ids are the handler names."""

from __future__ import annotations

import json
from pathlib import Path

from app.cli import openapi_document

OPENAPI_FILE = Path(__file__).parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_is_current() -> None:
    assert OPENAPI_FILE.read_text(encoding="utf-8") == openapi_document(), (
        "openapi/openapi.json is stale: run `make openapi` and commit it"
    )


def test_operation_ids_are_unique_handler_names() -> None:
    spec = json.loads(openapi_document())
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert {
        "register_agent",
        "list_agents",
        "get_agent",
        "update_agent",
        "delete_agent",
        "create_token",
    } <= set(ids)


def test_v1_routes_document_problem_responses() -> None:
    spec = json.loads(openapi_document())
    for path, operations in spec["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, op in operations.items():
            assert "401" in op["responses"] or "422" in op["responses"], (method, path)
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in response["content"], (method, path)
