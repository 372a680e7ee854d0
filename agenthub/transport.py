"""The kit's HTTP clients: httpx's own, their connections on a network backend that finds a
connection's socket once instead of on every request.

httpcore's pool asks each idle connection, twice a request, whether its socket became readable
(the server closed it). Over TLS, anyio answers ``get_extra_info`` by building the stream's
whole attribute table every time: at 16 callers on one pool that was a quarter of a leader's
CPU (bench.p2p, py-spy; issue 30). The streams here keep the socket they are on and poll it
directly. Everything else is httpcore's ``AnyIOBackend``, and the client is httpx's, with its
proxies from the environment, mounts and settings as given.
"""

from __future__ import annotations

import select
import ssl
import typing

import httpcore
import httpx

from agenthub.protocol.aic import aic_host


def http_client(*, aic: str | None = None, **kwargs: typing.Any) -> httpx.AsyncClient:
    """``httpx.AsyncClient(**kwargs)``, its own connections (not a proxy's) on this backend.
    Where httpx's insides are not the ones this knows, the client is left as httpx made it.

    With ``aic``, an https peer must prove that agent (:class:`AicFirst`)."""
    client = httpx.AsyncClient(**kwargs)
    pool = getattr(client._transport, "_pool", None)  # httpx.AsyncHTTPTransport's pool
    if type(pool) is httpcore.AsyncConnectionPool and hasattr(pool, "_network_backend"):
        pool._network_backend = _Backend()
    if aic is not None:
        client._transport = AicFirst(client._transport, aic)
    return client


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
