"""Baseline A's server: a bare Starlette endpoint that parses a JSON POST and echoes it."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def echo(request: Request) -> JSONResponse:
    return JSONResponse(await request.json())


app = Starlette(routes=[Route("/", echo, methods=["POST"])])
