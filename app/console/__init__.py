"""The web console at ``/console``: static HTML, CSS and JavaScript modules shipped in the
package (``assets/``), served as they are. Why no build step: ``README.md`` beside this file.

Only the files present at start are served, each by its name (a dict look-up: no path from the
request ever reaches the file system), with a Content-Security-Policy that lets the page load
and talk to nothing but the hub: agent names and messages are shown as text, and even a slip
that let one through as markup could neither run inline script nor send anything elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, HTMLResponse, Response

ASSETS_DIR = Path(__file__).parent / "assets"
CONSOLE_URL = "/console"
BASE_MARKER = "{{base}}"
"""index.html's ``<base href>``: the console's URL under the hub's root path (behind a proxy
that mounts the hub below a prefix, the page and its API calls stay under that prefix)."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",  # module scripts are refused under any other type
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # revalidate every time (by ETag): an upgraded hub serves its new console at once
    "Cache-Control": "no-cache",
}


def shipped_assets(directory: Path = ASSETS_DIR) -> dict[str, Path]:
    """Every servable file under ``directory`` by its URL path (``js/main.js``)."""
    return {
        path.relative_to(directory).as_posix(): path
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.suffix in CONTENT_TYPES
    }


def install_console(app: FastAPI) -> None:
    """Serve ``/console`` (and ``/console/``: index.html) and ``/console/<asset>``."""
    assets = shipped_assets()
    index = assets.pop("index.html").read_text(encoding="utf-8")

    async def console_index(request: Request) -> Response:
        root = request.scope.get("root_path", "").rstrip("/")
        html = index.replace(BASE_MARKER, f"{root}{CONSOLE_URL}/")
        return HTMLResponse(html, headers=SECURITY_HEADERS)

    async def console_asset(request: Request) -> Response:
        name = request.path_params["path"]
        path = assets.get(name)
        if path is None:
            raise HTTPException(404, f"The console has no file {name!r}.")
        return FileResponse(path, media_type=CONTENT_TYPES[path.suffix], headers=SECURITY_HEADERS)

    for url in (CONSOLE_URL, f"{CONSOLE_URL}/"):
        app.add_route(url, console_index, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_route(
        f"{CONSOLE_URL}/{{path:path}}",
        console_asset,
        methods=["GET", "HEAD"],
        include_in_schema=False,
    )
