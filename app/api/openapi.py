"""The OpenAPI document as the hub really answers (every error is problem+json), and the
pages that show it, /docs and /redoc, from assets shipped in the package (no CDN)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from starlette.routing import BaseRoute
from starlette.staticfiles import StaticFiles

from app.api.problems import Problem
from app.errors import PROBLEM_CONTENT_TYPE

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

**Lists** take `limit` (1 to 500, default 50) and the previous page's `nextCursor`. A page
of messages is bounded by bytes too (`AGENTHUB_MAX_PAGE_BYTES`): large messages make it
shorter than `limit`, and its `nextCursor` resumes right after it.

**Streams** (`GET /v1/agents/me/events`, `GET /v1/groups/{groupId}/events`) are
server-sent events that resume with `Last-Event-ID`. The generated Python client leaves
them out: the kit (`pip install agenthub`: `HubClient.inbox()`,
`HubClient.groups.events(...)`) is the SSE client.
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


def build_openapi(app: FastAPI, documented: Sequence[APIRouter] = ()) -> dict[str, Any]:
    """The hub's OpenAPI document; its paths in the order of the ``documented`` routers
    (the app may include them in another), the app's own routes first."""
    position = {id(router): n for n, router in enumerate(documented)}

    def place(route: Any) -> int:
        return position.get(id(getattr(route, "original_router", None)), -1)

    spec = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description or DESCRIPTION,
        routes=sorted(app.routes, key=place),
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
            # a body over AGENTHUB_MAX_BODY_BYTES, headers over AGENTHUB_MAX_HEADER_BYTES or
            # AGENTHUB_MAX_HEADERS: refused before the route reads them
            if "requestBody" in operation:
                responses.setdefault("413", {"description": "Payload too large"})
            responses.setdefault("431", {"description": "Request headers too large"})
            for status, response in responses.items():
                if status[:1] in ("4", "5"):
                    response["content"] = {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_REF}}
    return spec


def install_openapi(app: FastAPI, documented: Sequence[APIRouter] = ()) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app, documented)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    install_docs(app)


STATIC_DIR = Path(__file__).parent / "static"  # provenance and versions: its README.md
DOCS_URL = "/docs"
REDOC_URL = "/redoc"
ASSETS_URL = "/docs/assets"
SWAGGER_UI_PARAMETERS = {"validatorUrl": None}  # no badge fetched from an online validator


def install_docs(app: FastAPI) -> None:
    """Serve /docs (Swagger UI) and /redoc (ReDoc) from ``static/`` instead of FastAPI's
    pages, whose JavaScript, CSS, favicon and fonts come from CDNs: blank offline, and a
    third party learns who reads the docs. Swagger UI's OAuth2 redirect page goes too: the
    hub's schemes are bearer tokens, pasted in *Authorize*, not OAuth2 flows."""
    if app.openapi_url is None:
        return
    openapi_url, title = app.openapi_url, app.title
    replaced = {DOCS_URL, REDOC_URL, app.docs_url, app.redoc_url}
    replaced.add(app.swagger_ui_oauth2_redirect_url)
    replaced.discard(None)
    app.router.routes[:] = [r for r in app.router.routes if not _serves(r, replaced)]
    app.mount(ASSETS_URL, StaticFiles(directory=STATIC_DIR), name="docs-assets")

    async def swagger_ui_html(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=root + openapi_url,
            title=f"{title} - Swagger UI",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/swagger-ui/favicon-32x32.png",
            oauth2_redirect_url=None,
            swagger_ui_parameters={**SWAGGER_UI_PARAMETERS, **(app.swagger_ui_parameters or {})},
        )

    async def redoc_html(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_redoc_html(
            openapi_url=root + openapi_url,
            title=f"{title} - ReDoc",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/swagger-ui/favicon-32x32.png",
            with_google_fonts=False,
        )

    app.add_route(DOCS_URL, swagger_ui_html, include_in_schema=False)
    app.add_route(REDOC_URL, redoc_html, include_in_schema=False)


def _serves(route: BaseRoute, paths: set[str | None]) -> bool:
    return getattr(route, "path", None) in paths
