"""The hub's public URL: where agents reach it, the start of every URL it hands out or signs.

It is ``AGENTHUB_PUBLIC_URL``; a hub serving on loopback may go without one (``served_at``
makes it ``http://host:port``), one serving elsewhere may not. Never is it made of a
request's ``Host`` header, which is the caller's to choose.
"""

from __future__ import annotations

import ipaddress

from app.config import SettingError, Settings


def served_at(settings: Settings, host: str, port: int) -> Settings:
    """``settings`` for a hub serving at ``host``:``port``: the public URL as set, else (on
    loopback only) that address; off loopback one is required."""
    if settings.public_url:
        return settings
    if not is_loopback(host):
        raise SettingError(
            "public_url",
            f"unset, but serving on {host} needs it (the hub's URL goes into what it signs)",
            "set it to the URL agents reach the hub at, e.g. https://hub.example.com",
        )
    scheme = "https" if settings.tls_cert_file is not None else "http"
    return settings.model_copy(update={"public_url": origin(scheme, host, port)})


def is_loopback(host: str) -> bool:
    bare = host.strip("[]").lower()
    if bare in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def origin(scheme: str, host: str, port: int | None) -> str:
    """``scheme://host[:port]``, an IPv6 address in brackets, the scheme's own port left out."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    if port is None or port == {"http": 80, "https": 443}.get(scheme):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"
