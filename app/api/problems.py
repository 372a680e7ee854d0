"""Every error as ``application/problem+json`` (RFC 9457): the handlers the app installs, and
the ``responses`` entries routes document their errors with."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import (
    PROBLEM_CONTENT_TYPE,
    HubError,
    StoreUnavailable,
    problem_body,
    status_code_and_title,
)

logger = logging.getLogger(__name__)


def problem_response(
    status: int,
    detail: str,
    *,
    code: str | None = None,
    title: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    return JSONResponse(
        problem_body(status, detail, code=code, title=title, **extra),
        status_code=status,
        media_type=PROBLEM_CONTENT_TYPE,
        headers=headers,
    )


async def _hub_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HubError)
    return problem_response(
        exc.status, exc.detail, code=exc.code, title=exc.title, headers=exc.headers, **exc.members()
    )


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request))
    return problem_response(exc.status_code, str(exc.detail), headers=headers)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette names only the first route's)."""
    path = request.scope.get("path", "")
    methods: set[str] = set()
    for route in request.app.router.routes:
        regex = getattr(route, "path_regex", None)
        if regex is not None and regex.match(path) and getattr(route, "methods", None):
            methods |= set(route.methods)
    return sorted(methods)


def _clean_errors(errors: Any) -> list[dict[str, Any]]:
    """Validation errors without echoed input or exception objects: safe to serialize."""
    out = []
    for err in errors:
        out.append(
            {
                "loc": [str(p) for p in err.get("loc", ())],
                "msg": str(err.get("msg", "")),
                "type": str(err.get("type", "")),
            }
        )
    return out


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = _clean_errors(exc.errors())
    if any(e["type"] == "json_invalid" for e in errors):
        return problem_response(400, "The request body is not valid JSON.", errors=errors)
    return problem_response(422, "The request does not match the schema.", errors=errors)


STORE_BUSY_RETRY_SECONDS = 1


UNAVAILABLE_SQLSTATES = ("08", "57P01", "57P02", "57P03")
"""A connection exception (class 08), or the server shutting down, crashed, or not taking
connections yet (PostgreSQL's operator intervention codes): the store is away, not refusing."""


def _store_away(exc: DBAPIError) -> bool:
    if isinstance(exc, OperationalError | InterfaceError) or exc.connection_invalidated:
        return True
    state = getattr(exc.orig, "sqlstate", None)  # asyncpg's, through SQLAlchemy's adapter
    return isinstance(state, str) and state.startswith(UNAVAILABLE_SQLSTATES)


async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The SQL store timed out on a lock, lost its connection, or has no connection free
    (the pool's timeout), or cannot be reached at all (a refused or reset connection, which
    the driver raises as it is while it connects, or a server that answers it is shutting
    down or starting): retry later, nothing changed."""
    if isinstance(exc, DBAPIError) and not _store_away(exc):
        return await _unexpected_error(request, exc)  # a statement the store refused: a bug
    logger.warning("the SQL store is unavailable: %s", exc)
    busy = StoreUnavailable(
        "The store is busy or unreachable; nothing was changed. Retry shortly.",
        headers={"Retry-After": str(STORE_BUSY_RETRY_SECONDS)},
    )
    return await _hub_error(request, busy)


async def _unexpected_error(_: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error", exc_info=exc)
    return problem_response(500, "The hub failed to handle this request.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(HubError, _hub_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(DBAPIError, _store_unavailable)  # lost or unreachable
    app.add_exception_handler(ConnectionError, _store_unavailable)  # refused while connecting
    app.add_exception_handler(PoolTimeout, _store_unavailable)  # every connection in use
    app.add_exception_handler(Exception, _unexpected_error)


class Problem(BaseModel):
    """RFC 9457 problem details, the body of every error."""

    type: str
    title: str
    status: int
    detail: str


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for the error statuses a route can answer."""
    return {status: {"description": status_code_and_title(status)[1]} for status in statuses}
