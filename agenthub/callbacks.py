"""Where a partner may push notifications: a leader must not turn it into a way in.

By default a callback must resolve only to public unicast addresses. Refused: loopback,
unspecified, private (RFC 1918), shared (CGNAT, 100.64/10), unique-local (fc00::/7),
link-local and cloud metadata addresses, multicast and reserved ranges, and any IPv6 form
that carries such an IPv4 address inside it (IPv4-mapped, IPv4-compatible, NAT64, 6to4) or
tunnels to one (Teredo). ``allow_private`` lets loopback and private networks through (for
development, and deployments on one private network); ``allow_link_local`` also lets
link-local and metadata addresses through (almost never what you want).

The URL is resolved and checked before every push, and the push connects to the address
that was checked (``Host`` and TLS SNI keep the name): a name that resolves to a public
address for the check and to a private one for the connection (DNS rebinding) gets nowhere.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from agenthub.errors import UnsafeCallbackError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]

METADATA_HOSTS = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200")
)
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
TEREDO = ipaddress.ip_network("2001::/32")


@dataclass(frozen=True)
class CallbackPolicy:
    allow_private: bool = False
    allow_link_local: bool = False


@dataclass(frozen=True)
class PinnedCallback:
    """A checked callback: the URL to connect to (its host an address), the ``Host`` it
    names and, for https, the name TLS must verify."""

    url: str
    host_header: str
    sni_hostname: str | None


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for, if it has one inside."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in SIX_TO_FOUR:
        return address.sixtofour
    if any(address in net for net in NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    if int(address) >> 32 == 0 and int(address) > 1:  # IPv4-compatible ::a.b.c.d
        return ipaddress.IPv4Address(int(address))
    return None


def address_problem(address: IPAddress, policy: CallbackPolicy) -> str | None:
    """Why a push may not go to ``address`` under ``policy``, or None."""
    if isinstance(address, ipaddress.IPv6Address) and address in TEREDO:
        return "a Teredo tunnel address"
    inner = embedded_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else None
    for candidate in (inner, address):  # what is inside first: it decides where it goes
        if candidate is None:
            continue
        if candidate in METADATA_ADDRESSES or candidate.is_link_local:
            if not policy.allow_link_local:
                return "a link-local or metadata address"
            continue
        if candidate.is_unspecified or candidate.is_multicast:
            return "not a unicast address"
        if candidate.is_loopback or candidate.is_private or candidate in SHARED:
            if not policy.allow_private:
                return "a loopback or private address"
            continue
        if candidate.is_reserved:
            return "a reserved address"
    return None


async def _getaddrinfo(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]).split("%")[0] for info in infos]


def check_callback_form(url: str, policy: CallbackPolicy) -> IPAddress | None:
    """What can be told of ``url`` without resolving it: an absolute http(s) URL whose name
    is no metadata service's, nor ``localhost``'s, and whose literal address (returned, if
    it has one) the policy takes; ``UnsafeCallbackError`` otherwise. A push config is
    checked so when it is set (where DNS may be absent); ``pin_callback`` checks it again,
    resolved, before every push."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port out of range raises here)
    except ValueError as exc:
        raise UnsafeCallbackError("The notification URL is malformed.") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeCallbackError("The notification URL must be an absolute http(s) URL.")
    host = parts.hostname.lower().rstrip(".")
    if host in METADATA_HOSTS and not policy.allow_link_local:
        raise UnsafeCallbackError(f"The notification URL points at a metadata service ({host}).")
    if (host == "localhost" or host.endswith(".localhost")) and not policy.allow_private:
        raise UnsafeCallbackError("The notification URL names this machine (localhost).")
    try:
        literal: IPAddress = ipaddress.ip_address(host)
    except ValueError:
        return None
    problem = address_problem(literal, policy)
    if problem is not None:
        raise UnsafeCallbackError(f"The notification URL's address {literal} is {problem}.")
    return literal


async def pin_callback(
    url: str, policy: CallbackPolicy, *, resolve: Resolver = _getaddrinfo
) -> PinnedCallback:
    """Check ``url`` and fix the address a push connects to; ``UnsafeCallbackError`` if
    it is no http(s) URL, or its name or any address it resolves to is refused."""
    literal = check_callback_form(url, policy)
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().rstrip(".")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    else:
        try:
            addresses = [ipaddress.ip_address(a) for a in await resolve(host, port)]
        except (OSError, ValueError) as exc:
            raise UnsafeCallbackError(f"The notification host {host!r} does not resolve.") from exc
        if not addresses:
            raise UnsafeCallbackError(f"The notification host {host!r} does not resolve.")
    for address in addresses:  # every one: a resolver may hand out any of them later
        problem = address_problem(address, policy)
        if problem is not None:
            raise UnsafeCallbackError(f"The notification URL resolves to {address}, {problem}.")
    chosen = addresses[0]
    netloc = f"[{chosen}]" if chosen.version == 6 else str(chosen)
    if parts.port is not None:
        netloc += f":{parts.port}"
    pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
    host_header = parts.netloc.rsplit("@", 1)[-1]
    return PinnedCallback(pinned, host_header, host if parts.scheme == "https" else None)
