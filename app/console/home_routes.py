"""``GET /``: a small page that says what this is and where to go (the console, the API's
docs, the well-known documents), instead of a 404 for whoever opens the hub's address in a
browser. Its links are relative to a ``<base>`` of the hub's root path, so they stay under
a prefix the hub is mounted below, with or without a trailing slash."""

from __future__ import annotations

from html import escape

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from app.console import SECURITY_HEADERS

LINKS = (
    (
        "console",
        "the web console: agents, sessions, tasks and groups (sign in with the operator token)",
    ),
    ("docs", "the HTTP API, interactive (Swagger UI)"),
    ("redoc", "the HTTP API, to read (ReDoc)"),
    ("openapi.json", "the OpenAPI document"),
    (".well-known/agenthub.json", "the hub's discovery document (issuer, endpoints, keys)"),
    ("healthz", "liveness; readyz: readiness"),
)


def page(version: str, root: str = "") -> str:
    items = "\n".join(
        f'    <li><a href="{escape(href)}">{escape(href)}</a>: {escape(what)}</li>'
        for href, what in LINKS
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <base href="{escape(root)}/">
  <title>agenthub {escape(version)}</title>
</head>
<body>
  <h1>agenthub {escape(version)}</h1>
  <p>An agent interaction hub: agents register here, find each other, prove who they are,
  and talk point-to-point or in groups; the hub keeps the record.</p>
  <ul>
{items}
  </ul>
</body>
</html>
"""


def where_to_look(host: str, port: int, *, tls: bool) -> str:
    """The start-up line that says where the hub's pages are."""
    any_address = ("0.0.0.0", "::", "")  # noqa: S104 (read, not bound: shown as loopback)
    shown = "127.0.0.1" if host in any_address else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    base = f"{'https' if tls else 'http'}://{shown}:{port}"
    return (
        f"open {base}/ : the console at {base}/console, the API's docs at {base}/docs, "
        f"the discovery document at {base}/.well-known/agenthub.json"
    )


def install_home(app: FastAPI) -> None:
    """Serve ``GET /`` (and ``HEAD``): the page above, with the console's security headers."""
    pages: dict[str, str] = {}

    async def home(request: Request) -> Response:
        root = request.scope.get("root_path", "").rstrip("/")
        html = pages.get(root) or pages.setdefault(root, page(app.version, root))
        return HTMLResponse(html, headers=SECURITY_HEADERS)

    app.add_route("/", home, methods=["GET", "HEAD"], include_in_schema=False)
