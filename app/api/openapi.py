"""The OpenAPI document as the hub really answers: every error is problem+json."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.errors import PROBLEM_CONTENT_TYPE, Problem

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_FASTAPI_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")


def _problem_schema() -> dict[str, Any]:
    schema = Problem.model_json_schema()
    schema["properties"]["errors"] = {
        "type": "array",
        "description": "for 400/422: where the input is wrong",
        "items": {
            "type": "object",
            "properties": {
                "loc": {"type": "array", "items": {"type": "string"}},
                "msg": {"type": "string"},
                "type": {"type": "string"},
            },
        },
    }
    return schema


def build_openapi(app: FastAPI) -> dict[str, Any]:
    spec = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    for name in _FASTAPI_VALIDATION_SCHEMAS:
        schemas.pop(name, None)
    schemas["Problem"] = _problem_schema()
    for operations in spec.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            # any request can be malformed (a NUL in the path or query, bad JSON): 400
            responses.setdefault("400", {"description": "Bad Request"})
            for status, response in responses.items():
                if status[:1] in ("4", "5"):
                    response["content"] = {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_REF}}
    return spec


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
