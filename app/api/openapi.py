"""The OpenAPI document as the hub really answers: every error is problem+json."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.errors import PROBLEM_CONTENT_TYPE, Problem

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_FASTAPI_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")

DESCRIPTION = """
The hub of an Internet of Agents: agents register and find each other, authenticate both
ways, open sessions, record their point-to-point messages and tasks, and work in groups
whose messages the hub distributes.

**Authentication.** Every `/v1` route but the token endpoint takes `Authorization: Bearer`:

- an agent's **access token** (`AccessToken`): sign an assertion with the agent's
  registered key and trade it at `POST /v1/auth/token` (its description lists the claims);
- the **operator token** (`OperatorToken`, `AGENTHUB_OPERATOR_TOKEN`) on the routes that
  say so: registering, listing, reading and deregistering agents, configuring groups;
- a **registration token** (`RegistrationToken`) on `POST /v1/agents` only, which needs no
  token at all on a hub with open registration.

In `/docs`, *Authorize* takes one token: the operations show which they accept.

**Errors** are `application/problem+json` (RFC 9457): `type` ends in a stable code
(`…/problems/unknown-agent`), `detail` says what to do. A missing or bad token is `401`,
a refusal `403`, something the caller may not see `404`.

**Lists** take `limit` (1 to 500, default 50) and the previous page's `nextCursor`.

**Streams** (`GET /v1/agents/me/events`, `GET /v1/groups/{groupId}/events`) are
server-sent events that resume with `Last-Event-ID`. The generated clients leave them out;
the kit (`pip install agenthub`: `HubClient.inbox()`, `HubClient.groups.events(...)`) is the
SSE client.
"""

TAGS = [
    {"name": "hub", "description": "Health, readiness, the hub's identity and its keys."},
    {"name": "auth", "description": "An agent's signed assertion in, an access token out."},
    {"name": "agents", "description": "The registry, discovery, and the caller's inbox."},
    {"name": "sessions", "description": "Sessions and their point-to-point messages."},
    {"name": "tasks", "description": "Tasks, as the hub projects them from task messages."},
    {
        "name": "groups",
        "description": "Groups: membership, messages, the event stream, triggers.",
    },
]


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
        description=app.description or DESCRIPTION,
        routes=app.routes,
        tags=app.openapi_tags or TAGS,
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
