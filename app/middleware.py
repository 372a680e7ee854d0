"""Pure-ASGI middleware (BaseHTTPMiddleware would break streaming): the body size limit, NUL
refusal, the hand-off that writes event streams below all of them (and gives every request its
``X-Request-ID`` and its access-log line), and the request metrics."""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterable
from typing import Any, Protocol

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.problems import problem_response
from app.logs import ACCESS_LOGGER
from app.metrics import HubMetrics

HANDOFF = "agenthub.stream"
"""The scope key by which a stream's response hands itself to ``StreamHandoff``."""
REQUEST_ID = "agenthub.request_id"
"""The scope key of the request's id: its valid ``X-Request-ID``, else one made here."""
AGENT = "agenthub.agent"
"""The scope key where the auth dependencies leave the id of the agent a request is from."""
REQUEST_ID_HEADER = b"x-request-id"
VALID_REQUEST_ID = re.compile(rb"[!-~]{1,128}")
"""An id taken as sent: 1 to 128 visible ASCII characters (no spaces, nothing to break a log
line); any other is replaced by a new one."""
access_log = logging.getLogger(ACCESS_LOGGER)
_AS_SENT = re.compile(rb"[!#-~]*")  # printable ASCII but a quote: a path written as it is
MAX_LABELLED = 4096  # labelled children the metrics middleware keeps found
KEPT_SCOPE = frozenset(
    {"type", "asgi", "http_version", "method", "scheme", "path", "raw_path", "root_path"}
    | {"query_string", "headers", "client", "server", "extensions", "state", HANDOFF}
    | {REQUEST_ID}
)
"""What a handed-off stream's scope keeps (the server holds it for the stream's life)."""


class HandedOff(Protocol):
    async def run(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    def release(self) -> None:
        """Let go of what it holds (here: without writing; the request ended another way)."""


GROUP_POST = re.compile(r"/v1/groups/[^/]+/(?:messages|a2a)$")
"""A group post's paths: its own route, and the group's A2A face (``SendMessage``)."""


class BodySizeLimit:
    """Refuses request bodies over ``max_bytes`` with 413, by header or by counting; a group
    post's over ``max_post_bytes`` (each is fanned out to every member's stream, and read
    back in every page of the group's history)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, max_post_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_post_bytes = min(max_post_bytes or max_bytes, max_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, what = self.max_bytes, "The body"
        if scope["method"] == "POST" and GROUP_POST.search(scope["path"]):
            limit, what = self.max_post_bytes, "A group post"
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0:
                    response = problem_response(400, "Content-Length is not a number.")
                    await response(scope, receive, send)
                    return
                if declared > limit:
                    response = problem_response(413, f"{what} is larger than {limit} bytes.")
                    await response(scope, receive, send)
                    return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise HTTPException(413, f"{what} is larger than {limit} bytes.")
            return message

        await self.app(scope, limited_receive, send)


class RejectNul:
    """Refuses NUL characters in the path or query with 400: SQL text cannot hold them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (
            "\x00" in scope["path"] or b"%00" in scope["query_string"].lower()
        ):
            response = problem_response(400, "NUL characters are not accepted in paths or queries.")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class StreamHandoff:
    """The outermost ASGI layer: writes the streams that routes handed to it, on the
    server's own ``send``, once the middleware and the route have returned (their frames,
    wrappers and exit stacks are gone by then).

    A stream handed over is released (its lease let go, nothing written) when the request
    failed or was answered otherwise after the route returned it: an exception, or an error
    handler's response, from what ran after the route (a dependency's clean-up).

    Being outermost, it also sees every answer, Starlette's own 500 and the streams included:
    each carries the request's ``X-Request-ID``, and its start is the request's access-log
    line (``app.access``, at INFO; it replaces uvicorn's, see ``app.logs``). No layer of
    its own: one more ASGI layer is a fixed cost of every group post.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        request_id = scope[REQUEST_ID] = _request_id(scope.get("headers", ()))
        scope[HANDOFF] = None
        answered = False

        async def answering(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
                message["headers"] = [
                    *message.get("headers", ()),
                    (REQUEST_ID_HEADER, request_id.encode("ascii")),
                ]
                if access_log.isEnabledFor(logging.INFO):
                    _log_access(scope, message["status"], start)
            await send(message)

        try:
            await self.app(scope, receive, answering)
        except BaseException:
            stream: HandedOff | None = scope.get(HANDOFF)
            if stream is not None:
                stream.release()
            raise
        stream = scope.get(HANDOFF)
        if stream is None:
            return
        if answered:
            stream.release()
            return
        if access_log.isEnabledFor(logging.INFO):
            _log_access(scope, 200, start)  # it opens now; its start carries the id itself
        for key in [key for key in scope if key not in KEPT_SCOPE]:
            del scope[key]  # the route, the app, the exit stacks: nothing the stream needs
        # its own ``send``, not ``answering``: a layer less for every frame of a fan-out
        await stream.run(scope, receive, send)


def _request_id(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The request's ``X-Request-ID`` when it is a valid one, else a new one."""
    for name, value in headers:
        if name == REQUEST_ID_HEADER:
            if VALID_REQUEST_ID.fullmatch(value):
                return value.decode("ascii")
            break
    return os.urandom(16).hex()  # a uuid4's 128 random bits, without its object (2.9 -> 0.5 us)


def with_request_id(scope: Scope, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` and the request's ``X-Request-ID`` (a handed-off stream's start: it is
    sent on the server's own ``send``, past ``StreamHandoff``'s)."""
    request_id: str | None = scope.get(REQUEST_ID)
    if request_id is None:
        return headers
    return [*headers, (REQUEST_ID_HEADER, request_id.encode("ascii"))]


def route_template(scope: Scope) -> str:
    """The route the request matched (``/v1/groups/{groupId}/messages``), else its path."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else str(scope["path"])


def _as_sent(scope: Scope) -> str:
    """The path for a text line, as it came on the wire: still percent-encoded (``scope["path"]``
    is decoded, and a ``%0a`` in it would start a forged line of the log), with a ``"`` or any
    other byte outside printable ASCII escaped, as uvicorn's own access line did."""
    raw = scope.get("raw_path") or str(scope["path"]).encode("utf-8", "surrogateescape")
    if scope.get("query_string"):
        raw += b"?" + scope["query_string"]
    if _AS_SENT.fullmatch(raw):  # nearly every path: nothing to escape
        return raw.decode("ascii")
    return "".join(chr(b) if 0x21 <= b <= 0x7E and b != 0x22 else f"%{b:02X}" for b in raw)


def _log_access(scope: Scope, status: int, start: float) -> None:
    """One line a request, when its answer starts (an event stream's: when it opens).
    The fields are the record's own too: the JSON format writes each as a key."""
    duration_ms = round((time.perf_counter() - start) * 1000, 3)
    client = scope.get("client")
    where = f"{client[0]}:{client[1]}" if client else "-"
    method, path, agent, request_id = (
        scope["method"],
        scope["path"],
        scope.get(AGENT),
        scope[REQUEST_ID],
    )
    access_log.info(
        '%s "%s %s" %d %.1f ms agent=%s request=%s',
        where,
        method,
        _as_sent(scope),
        status,
        duration_ms,
        agent or "-",
        request_id,
        extra={
            "method": method,
            "route": route_template(scope),
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
            "agent_id": agent,
            "request_id": request_id,
            "client": where,
        },
    )


class MetricsMiddleware:
    def __init__(self, app: ASGIApp, *, metrics: HubMetrics) -> None:
        self.app = app
        self.metrics = metrics
        # the labelled children, found once (prometheus_client's labels() locks and checks
        # its arguments on every call); bounded, as a client may send any method
        self._children: dict[tuple[str, ...], Any] = {}

    def _child(self, metric: Any, *labels: str) -> Any:
        key = (str(id(metric)), *labels)
        child = self._children.get(key)
        if child is None:
            if len(self._children) >= MAX_LABELLED:
                self._children.clear()
            child = self._children[key] = metric.labels(*labels)
        return child

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        timed = False

        def respond(code: int) -> None:
            nonlocal status, timed
            status = code
            if not timed:
                timed = True
                latency = self._child(self.metrics.latency, scope["method"], _route(scope))
                latency.observe(time.perf_counter() - start)

        async def observing_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                respond(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, observing_send)
            if not timed and scope.get(HANDOFF) is not None:
                respond(200)  # an event stream, opened below the middleware (StreamHandoff)
        finally:
            self._child(self.metrics.requests, scope["method"], _route(scope), str(status)).inc()


def _route(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "<unmatched>"
