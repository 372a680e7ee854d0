"""``GET /``: a page that links the console, the API's docs and the well-known documents."""

from __future__ import annotations

import re

import httpx

from app.console import CSP


async def test_the_hubs_address_answers_a_page_that_says_where_things_are(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-security-policy"] == CSP
    assert '<base href="/">' in response.text  # under a prefix: the hub's root path
    links = re.findall(r'<a href="([^"]+)"', response.text)
    assert links == [
        "console",
        "docs",
        "redoc",
        "openapi.json",
        ".well-known/agenthub.json",
        "healthz",
    ]
    for link in links:  # every one of them is there
        assert (await client.get(f"/{link}")).status_code == 200, link
    assert (await client.head("/")).status_code == 200
