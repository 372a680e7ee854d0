"""The agent's HTTPS server side: uvicorn's httptools protocol (guarded: ``http_guard``)
filling the ASGI TLS extension (``scope["extensions"]["tls"]``) from the connection, so the
endpoint sees the certificate the client proved it holds (``agenthub.peers.client_certificate``
reads it)."""

from __future__ import annotations

import ssl
from typing import Any, cast

from cryptography import x509

from agenthub.http_guard import GuardedHttpProtocol

TLS_VERSIONS = {"TLSv1.3": 0x0304, "TLSv1.2": 0x0303}


def tls_extension(transport: Any) -> dict[str, Any] | None:
    """The ASGI TLS extension's scope entry for a connection, or None when it is plain."""
    ssl_object = transport.get_extra_info("ssl_object")
    if ssl_object is None:
        return None
    der = ssl_object.getpeercert(binary_form=True)
    cipher = ssl_object.cipher()
    return {
        "server_cert": None,
        # the leaf alone: Python before 3.13 does not give the verified chain
        "client_cert_chain": [ssl.DER_cert_to_PEM_cert(der)] if der else [],
        "client_cert_name": (
            x509.load_der_x509_certificate(der).subject.rfc4514_string() if der else None
        ),
        "client_cert_error": None,  # a certificate that fails verification fails the handshake
        "tls_version": TLS_VERSIONS.get(ssl_object.version() or ""),
        "cipher_suite": _cipher_id(ssl_object.context, cipher[0]) if cipher else None,
    }


def _cipher_id(context: ssl.SSLContext, name: str) -> int | None:
    for cipher in context.get_ciphers():
        if cipher["name"] == name:
            return int(cipher["id"]) & 0xFFFF
    return None


class TlsHttpProtocol(GuardedHttpProtocol):
    """uvicorn's httptools protocol (with the kit's limits, ``agenthub.http_guard``), with
    ``scope["extensions"]["tls"]`` filled in."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._tls = tls_extension(transport)

    def shutdown(self) -> None:
        """At the server's exit an idle connection goes at once: closing TLS politely waits
        for the client's close_notify, which an idle keep-alive client sends only when it
        next reads (uvicorn would wait out its graceful timeout)."""
        if self._tls is not None and (self.cycle is None or self.cycle.response_complete):
            self.transport.abort()
        else:
            super().shutdown()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._tls is not None:
            scope = cast(dict[str, Any], self.scope)
            scope.setdefault("extensions", {})["tls"] = self._tls
