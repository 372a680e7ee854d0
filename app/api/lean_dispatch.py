"""The lean routes' requests (the record routes, ``routing.lean_handler``: the hub's busiest)
taken to their handler past FastAPI's router and the layers they need not cross.

A group post crossed ten ASGI layers and FastAPI's router on its way to its handler: at
N = 10 members the request's way there and back was ~0.2 ms of the hub's ~1 ms a post
(py-spy over a fan-out burst), more than SQLite's part. ``LeanRoutes`` stands just inside
``StreamHandoff``: a ``POST`` whose path is a lean route's goes through a stack of its own,
made of the same layers the app's stack has and these routes use, built from the app's own
settings (its exception handlers, its middleware list):

    ServerErrorMiddleware → the app's middleware (metrics, NUL refusal, body limit)
    → ExceptionMiddleware (the app's handlers: problem+json) → the route's handler

and everything else goes through the app's stack as before. What it leaves out is what
these routes never use: FastAPI's router (the path was matched here, by the route's own
``matches``), its exception telemetry and body-size layers (telemetry is off while the
process does not trace; the hub's own body limit is in the middleware list), and the exit
stack of dependencies with ``yield`` (a lean route has none). A process that traces
takes every request through the app's stack, where FastAPI's telemetry makes its spans.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.routing import APIRoute
from starlette._utils import get_route_path
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

from agenthub import tracing
from app.api.routing import lean_handler

Handler = Callable[[Request], Coroutine[Any, Any, Response]]
HANDLER = "agenthub.lean_handler"
"""The scope key of the matched route's handler, for the endpoint at the stack's end."""


class LeanRoutes:
    """``POST`` to a lean route: its own stack (``lean_stack``); anything else: ``app``."""

    def __init__(self, app: ASGIApp, lean: ASGIApp, routes: list[tuple[APIRoute, Handler]]):
        self.app = app
        self.lean = lean
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            path = get_route_path(scope)
            for route, handler in self.routes:
                if route.path_regex.match(path) is None:
                    continue  # (a route's whole match, its scope made, is ~10x this test)
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    scope[HANDLER] = handler
                    await self.lean(scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def _endpoint(scope: Scope, receive: Receive, send: Send) -> None:
    """The matched route's handler, its response sent (as ``request_response`` does)."""
    handler: Handler = scope[HANDLER]
    response = await handler(Request(scope, receive, send))
    await response(scope, receive, send)


def lean_routes(app: FastAPI, full: ASGIApp, routers: Iterable[APIRouter]) -> ASGIApp:
    """``full`` (the app's stack) behind ``LeanRoutes`` for the lean routes of ``routers``
    (included at the app's root); ``full`` itself when the process traces, or there are
    none."""
    routes = [
        (route, handler)
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and (handler := lean_handler(route)) is not None
    ]
    if not routes or tracing.on():
        return full
    return LeanRoutes(full, lean_stack(app), routes)


def lean_stack(app: FastAPI) -> ASGIApp:
    """The layers of ``app``'s stack a lean route's request crosses, as FastAPI builds
    them (``FastAPI.build_middleware_stack``), around ``_endpoint``."""
    error_handler = None
    handlers: dict[Any, Any] = {}
    for key, value in app.exception_handlers.items():
        if key in (500, Exception):
            error_handler = value
        else:
            handlers[key] = value
    stack: ASGIApp = ExceptionMiddleware(_endpoint, handlers=handlers, debug=app.debug)
    for middleware in reversed(app.user_middleware):
        cls, args, kwargs = middleware
        stack = cls(stack, *args, **kwargs)
    return ServerErrorMiddleware(stack, handler=error_handler, debug=app.debug)
