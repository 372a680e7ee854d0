"""/docs and /redoc work offline: every asset they load comes from the hub itself, from the
copies shipped in the package (app/api/static), and those copies are in the hub's wheel."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest

from app.api.openapi import STATIC_DIR

ROOT = Path(__file__).parents[2]
# src="…", href="…", and Swagger UI's `url: '…'` (the OpenAPI document)
REFERENCE = re.compile(r"""(?:src|href)="([^"]*)"|\burl: '([^']*)'""")
CONTENT_TYPES = {
    ".js": "javascript",
    ".css": "text/css",
    ".png": "image/png",
    ".json": "application/json",
}


def references(html: str) -> list[str]:
    return [a or b for a, b in REFERENCE.findall(html)]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "openapi.json"}),
        ("/redoc", {"redoc.standalone.js", "favicon-32x32.png"}),
    ],
)
async def test_the_docs_pages_load_everything_from_the_hub(
    client: httpx.AsyncClient, page: str, expected: set[str]
) -> None:
    response = await client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    html = response.text
    assert "://" not in html.replace("http://www.w3.org", ""), "an external URL in the page"
    urls = references(html)
    assert {url.rsplit("/", 1)[-1] for url in urls} == expected, urls
    for url in urls:
        assert url.startswith("/"), url
        asset = await client.get(url)
        assert asset.status_code == 200, url
        kind = CONTENT_TYPES[Path(url).suffix]
        assert kind in asset.headers["content-type"], (url, asset.headers["content-type"])
        if url.startswith("/docs/assets/"):
            shipped = STATIC_DIR / url.removeprefix("/docs/assets/")
            assert asset.content == shipped.read_bytes(), url


async def test_redoc_reads_the_hubs_openapi_document(client: httpx.AsyncClient) -> None:
    html = (await client.get("/redoc")).text
    assert '<redoc spec-url="/openapi.json">' in html
    assert (await client.get("/openapi.json")).json()["components"]["securitySchemes"]


async def test_the_assets_carry_their_licenses(client: httpx.AsyncClient) -> None:
    for path in ("swagger-ui/LICENSE", "swagger-ui/NOTICE", "redoc/LICENSE"):
        response = await client.get(f"/docs/assets/{path}")
        assert response.status_code == 200 and response.text.strip(), path
    assert "Apache License" in (STATIC_DIR / "swagger-ui" / "LICENSE").read_text()
    assert "MIT License" in (STATIC_DIR / "redoc" / "LICENSE").read_text()


async def test_an_unknown_asset_is_a_404_problem(client: httpx.AsyncClient) -> None:
    for path in ("/docs/assets/nothing-here.js", "/docs/oauth2-redirect"):  # bearer, no OAuth2
        response = await client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("application/problem+json")


@pytest.mark.slow
def test_the_hub_wheel_ships_the_docs_assets(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "-o", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("agenthub_hub-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"app/api/static/{p.relative_to(STATIC_DIR)}" for p in STATIC_DIR.rglob("*") if p.is_file()
    }
    assert shipped and shipped <= names, sorted(shipped - names)
