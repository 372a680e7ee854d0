"""The kit's HTTP clients: httpx's own, on a pool that gives each request a connection of its
own, their connections on a network backend that finds a connection's socket once instead of
on every request.

httpcore's pool (1.0) hands every queued request the first idle connection in one pass, so
that several requests are assigned the same one: the first to run takes it, the others find
it busy (``ConnectionNotAvailable``) and queue again, behind requests that came later. At 16
callers on one pool the queue never empties and a request can lose many rounds: against a
bare endpoint that answers a raw client in 1.6 ms (p99 5 ms), httpcore's own pool had a p50
of 12 ms and a p99 of 143 ms; with each idle connection given to one request (``FairPool``),
p50 14 ms, **p99 23 ms**, and 1.7 times the calls (bench.p2p: the kit's p99 at c16).

httpcore's pool also asks each idle connection, twice a request, whether its socket became
readable (the server closed it). Over TLS, anyio answers ``get_extra_info`` by building the
stream's whole attribute table every time: at 16 callers on one pool that was a quarter of a
leader's CPU (bench.p2p, py-spy). The streams here keep the socket they are on and
poll it directly. Everything else is httpcore's ``AnyIOBackend``, and the client is httpx's,
with its proxies from the environment, mounts and settings as given.

Every request of these clients carries an ``X-Request-ID`` (one the caller set is kept): the
id of the request the agent is handling when it calls (its endpoint takes the caller's,
``taking_request_ids``, and what a handler calls or records carries it on), else a new one.
The hub logs it on its access line and returns it, so one id follows a call from the leader
to the partner and into the hub's records of it.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import ssl
import typing
from collections.abc import Iterator
from contextvars import ContextVar

import httpcore
import httpx

import agenthub.tracing as tracing
from agenthub.protocol.aic import aic_host


def http_client(*, aic: str | None = None, **kwargs: typing.Any) -> httpx.AsyncClient:
    """``httpx.AsyncClient(**kwargs)``, its own connections (not a proxy's) on this backend.
    Where httpx's insides are not the ones this knows, the client is left as httpx made it.

    With ``aic``, an https peer must prove that agent (:class:`AicFirst`)."""
    client = httpx.AsyncClient(**kwargs)
    client.event_hooks["request"].extend((_trace_context, _pass_request_id))
    pool = getattr(client._transport, "_pool", None)  # httpx.AsyncHTTPTransport's pool
    if type(pool) is httpcore.AsyncConnectionPool and hasattr(pool, "_network_backend"):
        pool._network_backend = _Backend()
        if not getattr(pool, "_http2", True):  # HTTP/2 shares a connection: httpcore's way
            pool.__class__ = FairPool  # the same pool, its requests assigned one by one
    if aic is not None:
        client._transport = AicFirst(client._transport, aic)
    return client


async def _trace_context(request: httpx.Request) -> None:
    """Every request of a kit client carries the current span's W3C trace context, when
    the process traces (``agenthub.tracing``): the partner, the A2A agent or the hub it
    calls continues the trace. No span of its own: the call's (``aip.rpc``…) is the one."""
    if tracing.on():
        tracing.inject(request.headers)


REQUEST_ID_HEADER = "X-Request-ID"
CALL_TIMEOUT_SECONDS = 60.0
"""How long a call to a partner may take, by default: the kit's own and ``peer_client``'s."""
_VALID_REQUEST_ID = re.compile(rb"[!-~]{1,128}")  # as the hub takes one: visible ASCII
_request_id: ContextVar[str | None] = ContextVar("agenthub_request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request being handled here, if any (what the kit's calls send)."""
    return _request_id.get()


@contextlib.contextmanager
def request_id(value: str | None) -> Iterator[None]:
    """The kit's calls within send ``value`` as their ``X-Request-ID`` (None: a new one each)."""
    token = _request_id.set(value)
    try:
        yield
    finally:
        _request_id.reset(token)


@contextlib.contextmanager
def one_request_id() -> Iterator[str]:
    """The block's calls and records share one id: the request's being handled, else a new
    one (a leader's call outside any handler: its command's record and the call itself)."""
    current = _request_id.get()
    if current is not None:
        yield current
        return
    made = os.urandom(16).hex()
    with request_id(made):
        yield made


def taking_request_ids(app: typing.Any) -> typing.Any:
    """``app`` (ASGI), handling each request under its caller's ``X-Request-ID`` (a valid
    one; else a new one), so that what it calls and records carries that id on, and
    answering it in ``X-Request-ID``, as the hub does."""

    async def taking(scope: typing.Any, receive: typing.Any, send: typing.Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        sent = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"")
        valid = _VALID_REQUEST_ID.fullmatch(sent) is not None
        taken = sent.decode("ascii") if valid else os.urandom(16).hex()
        header = (b"x-request-id", taken.encode("ascii"))

        async def answering(message: typing.Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        with request_id(taken):
            await app(scope, receive, answering)

    return taking


async def _pass_request_id(request: httpx.Request) -> None:
    if REQUEST_ID_HEADER not in request.headers:
        request.headers[REQUEST_ID_HEADER] = _request_id.get() or os.urandom(16).hex()


class AicFirst(httpx.AsyncBaseTransport):
    """Over https, TLS checks that the peer's certificate names the agent called
    (``{aic}.aic.invalid``, in every certificate of the hub's CA), not merely its host: the
    hub certifies an endpoint's host only where it can stand behind it. A peer whose
    certificate does not name the agent (one of the web's CAs, for an agent that serves
    under its own domain) is checked by the URL's host instead, as any client would, from
    then on for that host and port. The connection fails before a byte of the request is
    sent, so the request goes again as it was."""

    def __init__(self, inner: httpx.AsyncBaseTransport, aic: str) -> None:
        self.inner = inner
        self.name = aic_host(aic)
        self.by_host: set[tuple[str, int | None]] = set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        origin = (request.url.host, request.url.port)
        if (
            request.url.scheme != "https"
            or origin in self.by_host
            or "sni_hostname" in request.extensions
        ):
            return await self.inner.handle_async_request(request)
        request.extensions = {**request.extensions, "sni_hostname": self.name}
        try:
            return await self.inner.handle_async_request(request)
        except httpx.ConnectError as exc:
            if not _names_another(exc):
                raise
        self.by_host.add(origin)
        request.extensions = {k: v for k, v in request.extensions.items() if k != "sni_hostname"}
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


_NAME_MISMATCH = (62, 64)  # X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH


def _names_another(exc: BaseException | None) -> bool:
    """Whether the handshake failed only because the certificate names another host."""
    while exc is not None:
        if isinstance(exc, ssl.SSLCertVerificationError):
            return exc.verify_code in _NAME_MISMATCH
        exc = exc.__cause__ or exc.__context__
    return False


class _Stream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket = inner.get_extra_info("socket")

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> typing.Any:
        if info == "socket":
            return self._socket
        if info == "is_readable" and self._socket is not None:
            return _readable(self._socket)
        return self._inner.get_extra_info(info)


def _readable(sock: typing.Any) -> bool:
    """As httpcore asks it (``is_socket_readable``): a closed socket counts as readable."""
    fd = sock.fileno()
    if fd < 0:
        return True
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([fd], [], [], 0)[0])
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    return bool(poll.poll(0))


class _Backend(httpcore.AnyIOBackend):
    async def connect_tcp(self, *args: typing.Any, **kwargs: typing.Any) -> _Stream:
        return _Stream(await super().connect_tcp(*args, **kwargs))

    async def connect_unix_socket(self, *args: typing.Any, **kwargs: typing.Any) -> _Stream:
        return _Stream(await super().connect_unix_socket(*args, **kwargs))


class FairPool(httpcore.AsyncConnectionPool):
    """httpcore's HTTP/1.1 pool, where a connection is given to one request at a time: an
    idle connection already assigned to a request that has not started on it is not
    available to the next (httpcore's own pool gives it to all of them). Requests are still
    assigned in the order they came; closed, expired and surplus idle connections still go."""

    def _assign_requests_to_connections(self) -> list[httpcore.AsyncConnectionInterface]:
        closing: list[httpcore.AsyncConnectionInterface] = []
        for connection in list(self._connections):
            if connection.is_closed():
                self._connections.remove(connection)
            elif connection.has_expired():
                self._connections.remove(connection)
                closing.append(connection)
        held = {id(r.connection) for r in self._requests if r.connection is not None}
        idle = [c for c in self._connections if c.is_idle() and id(c) not in held]
        for connection in idle[: max(0, len(idle) - self._max_keepalive_connections)]:
            self._connections.remove(connection)
            closing.append(connection)
        for pool_request in [r for r in self._requests if r.is_queued()]:
            origin = pool_request.request.url.origin
            free = next(
                (
                    c
                    for c in self._connections
                    if id(c) not in held and c.can_handle_request(origin) and c.is_available()
                ),
                None,
            )
            if free is None:
                if len(self._connections) >= self._max_connections:
                    spare = next(
                        (c for c in self._connections if id(c) not in held and c.is_idle()), None
                    )
                    if spare is None:
                        continue  # it waits for a connection to come free
                    self._connections.remove(spare)
                    closing.append(spare)
                free = self.create_connection(origin)
                self._connections.append(free)
            held.add(id(free))
            pool_request.assign_to_connection(free)
        return closing
