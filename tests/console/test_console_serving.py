"""/console as the hub serves it: the page and its assets, their types and security headers,
and the static rules the front end keeps (every import resolves, nothing external, no
markup built from strings). The browser test (test_console_browser.py) drives it for real."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from app.console import ASSETS_DIR, CSP, shipped_assets

# src="…" and href="…" in index.html; `import … from "./x.js";` in the modules
REFERENCE = re.compile(r"""(?:src|href)="([^"#]+)\"""")
IMPORT = re.compile(r"""^import\s([^;]*?)["']([^"']+)["'];""", re.M)
NAMES = re.compile(r"\{([^}]*)\}")
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+(\w+)", re.M)
MODULES = sorted(ASSETS_DIR.rglob("*.js"))


@pytest.mark.parametrize("path", ["/console", "/console/"])
async def test_the_console_page_is_served_with_its_policy(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-security-policy"] == CSP
    assert "default-src 'self'" in CSP and "script-src 'self'" in CSP and "unsafe" not in CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert '<base href="/console/">' in response.text and "{{base}}" not in response.text


async def test_the_page_loads_every_asset_from_the_hub(client: httpx.AsyncClient) -> None:
    html = (await client.get("/console/")).text
    references = REFERENCE.findall(html)
    assert {"favicon.svg", "console.css", "js/main.js"} <= set(references), references
    types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    for reference in references:
        if reference == "/console/":
            continue
        assert "//" not in reference and not reference.startswith("/"), reference
        response = await client.get(f"/console/{reference}")
        assert response.status_code == 200, reference
        assert response.headers["content-type"].startswith(types[Path(reference).suffix])
        assert response.headers["content-security-policy"] == CSP
        assert response.content == (ASSETS_DIR / reference).read_bytes()


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.relative_to(ASSETS_DIR).as_posix())
def test_every_module_import_resolves_to_a_shipped_export(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    shipped = shipped_assets()
    for clause, target in IMPORT.findall(source):
        assert target.startswith("."), f"{module.name}: {target} is not a relative import"
        resolved = (module.parent / target).resolve().relative_to(ASSETS_DIR.resolve())
        assert resolved.as_posix() in shipped, f"{module.name} imports {target}: not shipped"
        # a name that is not exported fails the whole page as it loads, in the browser only
        exported = set(EXPORT.findall(shipped[resolved.as_posix()].read_text(encoding="utf-8")))
        for names in NAMES.findall(clause):
            wanted = {n.split(" as ")[0].strip() for n in names.split(",") if n.strip()}
            assert wanted <= exported, f"{module.name}: {target} lacks {wanted - exported}"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.relative_to(ASSETS_DIR).as_posix())
def test_no_module_builds_markup_from_strings_or_calls_elsewhere(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert risky not in source, f"{module.name} uses {risky}"
    assert "localStorage" not in source, f"{module.name}: the token lives in sessionStorage"
    assert not re.search(r"https?://", source), f"{module.name} names another origin"


async def test_an_unknown_asset_is_a_404_problem(client: httpx.AsyncClient) -> None:
    for path in ("/console/nothing.js", "/console/../app/main.py", "/console/README.md"):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("application/problem+json")


async def test_the_page_follows_the_root_path_behind_a_proxy(hub: object) -> None:
    transport = httpx.ASGITransport(app=hub, root_path="/hub")  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://hub.test") as http:
        response = await http.get("/console/")
    assert '<base href="/hub/console/">' in response.text


async def test_the_console_is_not_in_the_openapi_document(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert not [path for path in paths if path.startswith("/console")]
