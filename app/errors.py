"""The HubError tree and the handlers that render every error as ``application/problem+json``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://agenthub.dev/problems/"


class HubError(Exception):
    """An error a client caused or may see; carries its HTTP status and a stable code."""

    status: int = 400
    code: str = "bad-request"
    title: str = "Bad request"

    def __init__(self, detail: str | None = None, *, headers: dict[str, str] | None = None):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        self.headers = headers or {}


class BadRequest(HubError):
    status, code, title = 400, "bad-request", "Bad request"


class InvalidInput(HubError):
    status, code, title = 422, "invalid-input", "Invalid input"


class Unauthenticated(HubError):
    status, code, title = 401, "unauthenticated", "Authentication required"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": "Bearer"})


class UnknownAgent(Unauthenticated):
    """A token names an agent the hub does not know (never registered, or deregistered)."""

    code = "unknown-agent"


class Forbidden(HubError):
    status, code, title = 403, "forbidden", "Not allowed"


class NotFound(HubError):
    status, code, title = 404, "not-found", "Not found"


class Conflict(HubError):
    status, code, title = 409, "conflict", "Conflict"


class TooManyTriggers(Conflict):
    code = "too-many-triggers"


class AmbiguousTask(Conflict):
    code = "ambiguous-task-id"


class TaskExists(Conflict):
    """A start for a task id the session already has, with another partner."""

    code = "task-exists"


class IllegalTaskMove(Conflict):
    """A move the AIP state table can never allow now: the task is final. Not retryable."""

    code = "illegal-task-move"


class WrongTaskRole(Conflict):
    """A command from someone other than the task's leader, a report from other than its
    partner."""

    code = "wrong-task-role"


class SessionClosed(Conflict):
    code = "session-closed"


class GroupConcluded(Conflict):
    code = "group-concluded"


class MessageIdReused(Conflict):
    """The sender used this message id before, for another session or group."""

    code = "message-id-reused"


class TaskBusy(Conflict):
    """The task kept moving under this message: send it again (retryable)."""

    code = "task-busy"


class KeyRetired(Conflict):
    code = "key-retired"


class PayloadTooLarge(HubError):
    status, code, title = 413, "payload-too-large", "Payload too large"


class RateLimited(HubError):
    status, code, title = 429, "rate-limited", "Too many requests"


class Unavailable(HubError):
    status, code, title = 503, "unavailable", "Service unavailable"


class SchemaNotMigrated(Unavailable):
    code, title = "schema-not-migrated", "The store is not migrated"


_STATUS_CODES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthenticated", "Authentication required"),
    403: ("forbidden", "Not allowed"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("invalid-input", "Invalid input"),
    429: ("rate-limited", "Too many requests"),
    500: ("internal-error", "Internal server error"),
    503: ("unavailable", "Service unavailable"),
}


def problem_body(
    status: int, detail: str, *, code: str | None = None, title: str | None = None, **extra: Any
) -> dict[str, Any]:
    default_code, default_title = _STATUS_CODES.get(status, ("error", "Error"))
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + (code or default_code),
        "title": title or default_title,
        "status": status,
        "detail": detail,
    }
    body.update(extra)
    return body


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
        exc.status, exc.detail, code=exc.code, title=exc.title, headers=exc.headers
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


async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The SQL store timed out on a lock or lost its connection: retry later, nothing changed."""
    logger.warning("the SQL store is unavailable: %s", exc)
    busy = Unavailable(
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
    app.add_exception_handler(OperationalError, _store_unavailable)
    app.add_exception_handler(Exception, _unexpected_error)


class Problem(BaseModel):
    """RFC 9457 problem details, the body of every error."""

    type: str
    title: str
    status: int
    detail: str


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for the error statuses a route can answer."""
    return {
        status: {"description": _STATUS_CODES.get(status, ("error", "Error"))[1]}
        for status in statuses
    }
