"""The hub's routers: request bodies are read with orjson, which refuses what no store can
hold before any validation runs.

``json.loads`` accepts lone UTF-16 surrogates (``"\\ud800"``), NaN and Infinity, and nesting
as deep as Python's recursion allows; any of them, once committed, would make every later
read of the row fail. orjson refuses them (and is faster); a body it refuses for one of those
reasons is a 422 that says which, any other malformed body stays FastAPI's 400.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from starlette._utils import get_route_path
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Scope

from agenthub.protocol.base import MAX_JSON_DEPTH

UNSTORABLE = {
    "surrogate": "Strings must be valid Unicode: a lone UTF-16 surrogate (\\ud800-\\udfff) is not.",
    "depth limit": f"The body nests too deep (free-form JSON: at most {MAX_JSON_DEPTH} levels).",
    "infinity": "Numbers must be finite.",
}


class HubRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = orjson.loads(await self.body())
            except orjson.JSONDecodeError as exc:
                for marker, detail in UNSTORABLE.items():
                    if marker in exc.msg:
                        raise HTTPException(422, detail) from exc
                raise  # a json.JSONDecodeError: FastAPI's 400 "not valid JSON"
        return self._json


class JsonBody(Response):
    """A JSON answer written by orjson (compact, as Starlette's ``JSONResponse`` writes it,
    a few times faster): for what the hub already holds as JSON-ready dicts."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


class HubRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handler(request: Request) -> Response:
            return await handle(HubRequest(request.scope, request.receive))

        return handler


class HubRouter(APIRouter):
    """A router that turns away at once a path none of its routes can match.

    FastAPI (0.165) matches a request by asking every route of every included router in
    turn, each through a few scope manipulations (~2.5 us a route here): a group post, its
    router the tenth of twelve, took ~365 us to match. A path none of this router's route
    patterns match cannot match any of its routes, not even in part (a ``405``), so it is
    ``Match.NONE`` after one test of the alternation of their patterns, in C. The hub
    includes its routers at the root (``app.main``), so a route's pattern is what a
    request path is matched against.
    """

    _any_route: re.Pattern[str] | None = None  # None: some route has no pattern
    _routes_read: int = -1  # how many routes it was made of

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if self._routes_read != len(self.routes):
            self._any_route = _alternation(self.routes)
            self._routes_read = len(self.routes)
        if self._any_route is not None:
            path = get_route_path(scope)  # as Starlette's routes read it
            if self._any_route.match(path) is None:
                return Match.NONE, {}
        return super().matches(scope)


def _alternation(routes: list[Any]) -> re.Pattern[str] | None:
    """One pattern that matches what any of the routes' patterns match (their named groups
    made plain, as names may repeat), or None if a route has no pattern."""
    patterns = [getattr(route, "path_regex", None) for route in routes]
    if not patterns or None in patterns:
        return None
    plain = (_NAMED_GROUP.sub("(?:", p.pattern) for p in patterns if p is not None)
    return re.compile("|".join(f"(?:{p})" for p in plain))


_NAMED_GROUP = re.compile(r"\(\?P<[^>]+>")


def hub_router(**options: Any) -> APIRouter:
    """A ``HubRouter`` whose routes read bodies as ``HubRequest``."""
    return HubRouter(route_class=HubRoute, **options)
