"""The hub's routers: request bodies are read with orjson, which refuses what no store can
hold before any validation runs.

``json.loads`` accepts lone UTF-16 surrogates (``"\\ud800"``), NaN and Infinity, and nesting
as deep as Python's recursion allows; any of them, once committed, would make every later
read of the row fail. orjson refuses them (and is faster); a body it refuses for one of those
reasons is a 422 that says which, any other malformed body stays FastAPI's 400.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

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


class HubRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handler(request: Request) -> Response:
            return await handle(HubRequest(request.scope, request.receive))

        return handler


def hub_router(**options: Any) -> APIRouter:
    """An ``APIRouter`` whose routes read bodies as ``HubRequest``."""
    return APIRouter(route_class=HubRoute, **options)
