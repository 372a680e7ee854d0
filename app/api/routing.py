"""The hub's routers: request bodies are read with orjson, which refuses what no store can
hold before any validation runs.

``json.loads`` accepts lone UTF-16 surrogates (``"\\ud800"``), NaN and Infinity, and nesting
as deep as Python's recursion allows; any of them, once committed, would make every later
read of the row fail. orjson refuses them (and is faster); a body it refuses for one of those
reasons is a 422 that says which, any other malformed body stays FastAPI's 400.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response, params
from fastapi._compat import ModelField
from fastapi._compat.shared import field_annotation_is_sequence, lenient_issubclass
from fastapi._compat.v2 import get_missing_field_error
from fastapi.datastructures import DefaultPlaceholder
from fastapi.dependencies.utils import (
    get_validation_alias,
    request_body_to_args,
    request_params_to_args,
)
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel
from pydantic_core import PydanticUndefined as Undefined
from starlette._utils import get_route_path
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import Match
from starlette.types import Receive, Scope

from agenthub.protocol.base import MAX_JSON_DEPTH
from app.public_url import origin

MAX_BODY_SIZE_SCOPE_KEY = "starlette.max_body_size"  # as Starlette's body limit names it
try:  # FastAPI 0.16x: a body over a route's max_body_size is its own error
    from fastapi._body_limit import get_body_limit_error
except ImportError:  # pragma: no cover (FastAPI before 0.16x)

    def get_body_limit_error(exc: Exception) -> Exception | None:
        return None


UNSTORABLE = {
    "surrogate": "Strings must be valid Unicode: a lone UTF-16 surrogate (\\ud800-\\udfff) is not.",
    "depth limit": f"The body nests too deep (free-form JSON: at most {MAX_JSON_DEPTH} levels).",
    "infinity": "Numbers must be finite.",
}


def base_url(request: Request, public_url: str | None) -> str:
    """Where the hub is, for the URLs it hands out (in cards it signs, too):
    ``AGENTHUB_PUBLIC_URL``, else the address the connection came to (the server's own
    socket; ``agenthub serve`` sets the public URL from it on loopback and requires one
    elsewhere). Never the request's ``Host`` header: that is the caller's to choose."""
    if public_url:
        return public_url.rstrip("/")
    host, port = request.scope.get("server") or ("localhost", None)
    return origin(str(request.scope.get("scheme") or "http"), str(host), port)


class HubRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = _loads(await self.body())
        return self._json


def _loads(raw: bytes) -> Any:
    """The body's JSON, read by orjson: what no store can hold is a 422 saying why."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        for marker, detail in UNSTORABLE.items():
            if marker in exc.msg:
                raise HTTPException(422, detail) from exc
        raise  # a json.JSONDecodeError: FastAPI's 400 "not valid JSON"


class JsonBody(Response):
    """A JSON answer written by orjson (compact, as Starlette's ``JSONResponse`` writes it,
    a few times faster): for what the hub already holds as JSON-ready dicts."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


Resolver = Callable[[Request], Awaitable[Any]]
_RESOLVERS: dict[Callable[..., Any], Resolver] = {}


def resolves_itself(dependency: Callable[..., Any], resolver: Resolver) -> None:
    """Let ``resolver(request)`` stand for ``dependency`` and what it depends on, in routes
    that take nothing else but path parameters and a JSON body (``lean_handler``)."""
    _RESOLVERS[dependency] = resolver


class HubRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        lean = lean_handler(self)
        if lean is not None:
            return lean
        handle = super().get_route_handler()

        async def handler(request: Request) -> Response:
            return await handle(HubRequest(request.scope, request.receive))

        return handler


def lean_handler(route: APIRoute) -> Callable[[Request], Coroutine[Any, Any, Response]] | None:
    """The request handler of a route that takes path parameters, a JSON body and
    dependencies that each resolve themselves (``resolves_itself``), and answers a
    ``Response`` of its own: the record routes, the hub's busiest.

    FastAPI's handler is general: per request it reads the content type through
    ``email.message``, solves the dependency tree (a sub-dependency a call, each with its
    cache key), makes a response for dependencies to set headers on, and checks what the
    endpoint returned. On a group post that was ~230 us of ~750 of the app's CPU. This one
    does what those routes need, in FastAPI's order and with FastAPI's own functions for
    the parameters and the body (``request_params_to_args``, ``request_body_to_args``): the
    dependencies first (a 401 before any 422), then the path and the body, their errors
    raised together as FastAPI raises them. ``None``: the route is not of that shape."""
    dependant = route.dependant
    call = dependant.call
    if (
        call is None
        or not inspect.iscoroutinefunction(call)
        or dependant.query_params
        or dependant.header_params
        or dependant.cookie_params
        or len(dependant.body_params) != 1
        or route.body_field is None
        or isinstance(route.body_field.field_info, (params.Form, params.File))
        or dependant.request_param_name
        or dependant.http_connection_param_name
        or dependant.background_tasks_param_name
        or dependant.response_param_name
        or dependant.security_scopes_param_name
        or not all(d.call in _RESOLVERS and d.name for d in dependant.dependencies)
    ):
        return None
    resolvers = [(d.name or "", _RESOLVERS[d.call]) for d in dependant.dependencies if d.call]
    path_fields, body_fields = dependant.path_params, dependant.body_params
    embed = route._embed_body_fields
    read_path, read_body = _path_reader(path_fields), _body_reader(body_fields, embed)
    strict = getattr(route, "strict_content_type", False)  # FastAPI 0.16x: default True
    strict = strict.value if isinstance(strict, DefaultPlaceholder) else bool(strict)

    async def handler(request: Request) -> Response:
        values: dict[str, Any] = {}
        for name, resolve in resolvers:
            values[name] = await resolve(request)
        body = await _json_body(request.scope, request.receive, strict)
        path_values, errors = read_path(request.path_params)
        body_values, body_errors = await read_body(body)
        if errors or body_errors:
            raise RequestValidationError(
                [*errors, *body_errors], body=None if body is Undefined else body
            )
        response = await call(**values, **path_values, **body_values)
        if not isinstance(response, Response):
            raise TypeError(f"{route.path}: a lean route answers a Response of its own")
        return response

    return handler


PathReader = Callable[[dict[str, Any]], tuple[dict[str, Any], list[Any]]]
BodyReader = Callable[[Any], Awaitable[tuple[dict[str, Any], list[Any]]]]


def _path_reader(fields: list[ModelField]) -> PathReader:
    """The route's path parameters validated as ``request_params_to_args`` does, with what
    it works out from each field on every request (its alias, whether it is a sequence or
    a model: ~13 us a group post, its one ``str`` field's validation ~0.5 us) worked out
    once. Fields of another shape than a plain path parameter: FastAPI's own function."""
    if not all(
        isinstance(f.field_info, params.Path)
        and not field_annotation_is_sequence(f.field_info.annotation)
        and not lenient_issubclass(f.field_info.annotation, BaseModel)
        for f in fields
    ):
        return lambda values: request_params_to_args(fields, values)
    plan = [(f, get_validation_alias(f)) for f in fields]

    def read(values: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
        out: dict[str, Any] = {}
        errors: list[Any] = []
        for field, alias in plan:
            loc = ("path", alias)
            value = values.get(alias)
            if value is None:  # (a matched route has all of its path's parameters)
                errors.append(get_missing_field_error(loc=loc))
                continue
            valid, wrong = field.validate(value, out, loc=loc)
            if wrong:
                errors.extend(wrong)
            else:
                out[field.name] = valid
        return out, errors

    return read


def _body_reader(fields: list[ModelField], embed: bool) -> BodyReader:
    """The body validated as ``request_body_to_args`` does for one field not embedded
    (the record routes' message), without what it works out again on every request
    (whether to embed: the route knows). Any other shape: FastAPI's own function."""
    if len(fields) != 1 or embed:
        return lambda body: request_body_to_args(fields, body, embed)
    (field,) = fields
    loc = ("body",)

    async def read(body: Any) -> tuple[dict[str, Any], list[Any]]:
        if body is Undefined:
            if field.field_info.is_required():
                return {field.name: None}, [get_missing_field_error(loc=loc)]
            return await request_body_to_args(fields, body, embed)  # its default, FastAPI's way
        valid, errors = field.validate(body, {}, loc=loc)
        return {field.name: valid}, errors

    return read


async def _json_body(scope: Scope, receive: Receive, strict: bool) -> Any:
    """The body as FastAPI reads it for a JSON body parameter: JSON when the content type
    says so (``application/json``, ``application/*+json``, or none unless ``strict``), its
    bytes otherwise (which the body's validation refuses), ``Undefined`` when empty. Read
    from ``receive`` and the scope's headers as they are: a ``Request`` made for it (its
    stream, its parsed headers) was a tenth of the lean handler's time."""
    try:
        raw = await _read(receive)
        if not raw:
            return Undefined
        content_type = None
        for name, value in scope["headers"]:
            if name == b"content-type":
                content_type = value.decode("latin-1")
                break
        if (content_type is None and strict) or (content_type and not _is_json(content_type)):
            return raw
        return _loads(raw)
    except json.JSONDecodeError as exc:
        invalid = {
            "type": "json_invalid",
            "loc": ("body", exc.pos),
            "msg": "JSON decode error",
            "input": {},
            "ctx": {"error": exc.msg},
        }
        raise RequestValidationError([invalid], body=exc.doc) from exc
    except HTTPException:
        raise
    except Exception as exc:
        if MAX_BODY_SIZE_SCOPE_KEY in scope and (limit := get_body_limit_error(exc)):
            raise limit from exc
        raise HTTPException(400, "There was an error parsing the body") from exc


async def _read(receive: Receive) -> bytes:
    """The request's body, as ``Request.body`` reads it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.request":
            if chunk := message.get("body", b""):
                chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()


def _is_json(content_type: str) -> bool:
    media = content_type.partition(";")[0].strip().lower()
    kind, _, subtype = media.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


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
