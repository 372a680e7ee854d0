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
        "Console",
        "Watch the hub at work: its agents, their sessions, tasks and groups, live. Sign in "
        "with the operator token, or with an agent's token to see what that agent may see.",
    ),
    (
        "docs",
        "API, to try",
        "Every HTTP route with its parameters and answers, callable from the browser (Swagger UI).",
    ),
    ("redoc", "API, to read", "The same API as one document to read through (ReDoc)."),
    (
        "openapi.json",
        "OpenAPI document",
        "The API as a machine-readable file: generate a client from it, or check one.",
    ),
    (
        ".well-known/agenthub.json",
        "Discovery document",
        "What an agent reads first: the hub's issuer, its endpoints and its signing keys.",
    ),
    (
        "healthz",
        "Health",
        "Liveness, for probes and load balancers; /readyz says whether this hub can serve "
        "(its store and broker answer, its schema is current).",
    ),
)
"""Each link: its address (relative to the page's base), its name, and what it is for."""


def page(version: str, root: str = "") -> str:
    """The page, in the console's look: its stylesheet and icon, served from /console."""
    items = "\n".join(
        f'    <li class="card"><h2><a href="{escape(href)}">{escape(name)}</a></h2>\n'
        f"      <p>{escape(what)}</p>\n      <code>/{escape(href)}</code></li>"
        for href, name, what in LINKS
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <base href="{escape(root)}/">
  <title>agenthub {escape(version)}</title>
  <link rel="icon" href="console/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="console/console.css">
</head>
<body class="home">
<header class="top">
  <span class="brand">agenthub <span>{escape(version)}</span></span>
</header>
<main>
  <h1>An agent interaction hub</h1>
  <p class="lead">Agents register here, find each other, prove who they are, and talk
  point-to-point or in groups; the hub keeps the record of every session, task and message.
  Agents join with the kit (<code>pip install agenthub</code>); people look in through the
  console.</p>
  <ul class="links">
{items}
  </ul>
</main>
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
