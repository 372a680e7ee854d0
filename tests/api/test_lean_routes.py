"""The record routes' own request handler (``app.api.routing.lean_handler``), and their
posts' way to it past FastAPI's router (``app.api.lean_dispatch``), answer every request as
FastAPI's general handler and router answer it: each bad request below gets the same status,
content type and problem document from the hub as from the same app built without them, and
leaves the store as it was."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
import pytest

from app.api import routing
from app.config import Settings
from app.core.models import StoredMessage
from app.main import create_app
from tests.support.groups import count, team
from tests.support.messages import chat
from tests.support.parts import parts
from tests.support.sessions import new_session, p2p

HUB = "http://hub.test"


RECORD_PATHS = (
    "/v1/groups/g/messages",
    "/v1/sessions/s/messages",
    "/v1/sessions/s/messages:batch",
    "/v1/sessions/messages:batch",
    "/v1/sessions/s/answers",
)


async def _build_handlers(app: Any) -> None:
    """FastAPI builds a route's handler on the first request its router sees."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB) as http:
        for path in RECORD_PATHS:
            assert (await http.post(path, content=b"{}")).status_code == 401


@pytest.fixture
async def general(
    hub: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The same hub (its store, its keys) with FastAPI's general handler on every route: the
    hub's handlers built first, then this app's with no dependency resolving itself."""
    await _build_handlers(hub)
    monkeypatch.setattr(routing, "_RESOLVERS", {})
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        await _build_handlers(application)
        yield application


def test_the_record_routes_and_only_they_take_the_lean_handler(hub: Any) -> None:
    lean = sorted(
        (sorted(route.methods)[0], route.path)
        for route in _api_routes(hub.router.routes)
        if routing.lean_handler(route) is not None
    )
    assert lean == [
        ("POST", "/v1/groups/{groupId}/messages"),
        ("POST", "/v1/sessions/messages:batch"),
        ("POST", "/v1/sessions/{sessionId}/answers"),
        ("POST", "/v1/sessions/{sessionId}/messages"),
        ("POST", "/v1/sessions/{sessionId}/messages:batch"),
    ]


def _api_routes(routes: list[Any]) -> list[Any]:
    """Every APIRoute of the app, through its included routers."""
    from fastapi.routing import APIRoute

    found: dict[int, Any] = {}
    for route in routes:
        if isinstance(route, APIRoute):
            found[id(route)] = route
            continue
        for router in (getattr(route, "original_router", None), getattr(route, "router", None)):
            for inner in _api_routes(getattr(router, "routes", None) or []):
                found[id(inner)] = inner
    return list(found.values())


async def test_each_bad_request_is_answered_as_fastapi_answers_it(
    hub: Any, general: Any, make_agent: Any
) -> None:
    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    session = await new_session(leader, p2p(member))
    token = await leader.access_token()
    sender = str(leader.agent_id)
    good = chat(sender, "hello")
    auth = {"Authorization": f"Bearer {token}"}
    json_type = {"Content-Type": "application/json"}
    cases: list[tuple[str, dict[str, str], bytes]] = [
        ("no token", json_type, orjson.dumps(good)),
        ("not bearer", {**json_type, "Authorization": "Basic abc"}, orjson.dumps(good)),
        ("bad token", {**json_type, "Authorization": "Bearer x.y.z"}, orjson.dumps(good)),
        ("operator token", {**json_type, "Authorization": "Bearer operator"}, b"{}"),
        ("no body", {**auth, **json_type}, b""),
        ("not JSON", {**auth, **json_type}, b"{'a': 1"),
        ("text/plain", {**auth, "Content-Type": "text/plain"}, orjson.dumps(good)),
        ("no content type", auth, orjson.dumps(good)),
        ("a list", {**auth, **json_type}, b"[]"),
        ("no type", {**auth, **json_type}, orjson.dumps({**good, "type": None})),
        ("unknown type", {**auth, **json_type}, orjson.dumps({**good, "type": "gossip"})),
        ("no items", {**auth, **json_type}, orjson.dumps({**good, "dataItems": []})),
        ("lone surrogate", {**auth, **json_type}, b'{"type": "message", "id": "\\ud800"}'),
        ("too deep", {**auth, **json_type}, b'{"a":' * 200 + b"1" + b"}" * 200),
        ("NaN", {**auth, **json_type}, b'{"type": "message", "n": NaN}'),
        ("json+suffix", {**auth, "Content-Type": "application/x+json"}, b'{"type": 1}'),
        ("too big", {**auth, **json_type}, b" " * (parts(hub).settings.max_body_bytes + 1)),
    ]
    paths = [
        f"/v1/groups/{group['id']}/messages",
        f"/v1/groups/{'g' * 201}/messages",
        "/v1/groups/grp-absent/messages",
        f"/v1/groups/{group['id']}/messages?q=%00",
        f"/v1/sessions/{session['id']}/messages",
        f"/v1/sessions/{'s' * 201}/messages",
        f"/v1/sessions/{session['id']}/messages:batch",
        f"/v1/sessions/{session['id']}/answers",
    ]
    before = await count(hub, StoredMessage)
    async with (
        httpx.AsyncClient(transport=httpx.ASGITransport(app=hub), base_url=HUB) as lean,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=general), base_url=HUB) as fastapi,
    ):
        for path in paths:
            for name, headers, body in cases:
                ours = await lean.post(path, content=body, headers=headers)
                theirs = await fastapi.post(path, content=body, headers=headers)
                assert 400 <= ours.status_code < 500, (name, path, ours.text)
                got = (ours.status_code, ours.headers["content-type"], ours.json())
                want = (theirs.status_code, theirs.headers["content-type"], theirs.json())
                assert got == want, (name, path)
                assert "x-request-id" in ours.headers, (name, path)
    assert await count(hub, StoredMessage) == before


async def test_a_good_post_is_the_same_through_either(
    hub: Any, general: Any, make_agent: Any
) -> None:
    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    path = f"/v1/groups/{group['id']}/messages"
    auth = {"Authorization": f"Bearer {await leader.access_token()}"}
    for app in (hub, general):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB) as http:
            body = chat(str(leader.agent_id), "hello")
            first = await http.post(path, json=body, headers=auth)
            again = await http.post(path, json=body, headers=auth)
            assert (first.status_code, again.status_code) == (201, 200), first.text
            assert again.json() == first.json()
            assert first.headers["content-type"] == "application/json"


async def test_record_posts_go_past_the_router_and_are_counted_as_any_request(
    hub: Any, general: Any, make_agent: Any
) -> None:
    """The hub's record posts take the lean stack (``LeanRoutes``); the app without lean
    routes has none. Either way a post is counted under its route template."""
    from app.api.lean_dispatch import LeanRoutes

    leader, member = await make_agent("leader"), await make_agent("member")
    group = await team(leader, member)
    path = f"/v1/groups/{group['id']}/messages"
    auth = {"Authorization": f"Bearer {await leader.access_token()}"}
    counted = (
        'agenthub_http_requests_total{method="POST",route="/v1/groups/{groupId}/messages",'
        'status="201"} 1.0'
    )
    for app in (hub, general):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB) as http:
            posted = await http.post(path, json=chat(str(leader.agent_id), "hi"), headers=auth)
            assert posted.status_code == 201, posted.text
            assert counted in (await http.get("/metrics")).text
    assert isinstance(hub.middleware_stack.app, LeanRoutes)
    assert not isinstance(general.middleware_stack.app, LeanRoutes)
