"""The names an agent's certificate carries: what the agent proved, and of its endpoint only
what no one else claims (ACPs AIA; GB/Z 185.6 identity).

A leaf always names its agent (CN and SAN URI ``acps://{AIC}``, DNS ``{aic}.aic.invalid``):
the agent proved those by signing its CSR with its registered key. Its ``endpointUrl`` is only
written, and an agent may PATCH it at will, so a client that trusts the agents' CA and checks
only the host name would accept an impostor for any name the CA put in. So the endpoint's host
goes in only when:

- it is a DNS name no other live agent's ``endpointUrl`` uses, and a public one: not
  ``localhost``, not one label, not under a private or special-use suffix (``.local``,
  ``.internal``, ``.lan``, ``.home.arpa``, ``.test``, ``.example`` …). With
  ``AGENTHUB_CERTIFY_PRIVATE_NAMES`` (a closed network) private and loopback names go in too,
  still only when no other live agent uses them;
- it is an IP address and the operator allows them (``AGENTHUB_CERTIFY_IP_ADDRESSES``, a
  closed network): any address, shared by every agent that serves there, loopback included.

Otherwise the leaf names the agent only, and a client checks the AIC (SNI and host name
``{aic}.aic.invalid``; ``docs/guide/p2p.md`` shows it with ``httpx`` and ``ssl``), as the kit
does. A host no certificate may name at all (a wildcard, a malformed name, one under
``.invalid`` where the agents' own names are) is a 422 ``endpoint-not-certifiable``.

A name is first come, first certified, but not for ever: a name in a live certificate is a
name one agent alone claims. When another agent registers with (or moves its ``endpointUrl``
to) that host, every other agent's live certificate naming it is revoked (``name claimed by
another agent``, ``service.revoke_names_claimed``), and no agent's next certificate names it
while two claim it (nor while another agent holds a live certificate naming it). Names are
not verified, so a contested name is no one's: the rightful owner who registers ends the
squatter's certificate at once, and a squatter can only make the name uncertified (each
agent's certificate still names its AIC, which is what the kit checks).
"""

from __future__ import annotations

import ipaddress
import logging
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.agents.models import Agent
from app.certificates.errors import UncertifiableEndpoint
from app.certificates.models import Certificate
from app.models.types import utcnow

logger = logging.getLogger(__name__)

_DNS_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*"
)
LOOPBACK_SUFFIXES = ("localhost", "localhost.localdomain")
PRIVATE_SUFFIXES = (
    "local",  # mDNS, RFC 6762
    "internal",  # ICANN, for private use
    "home.arpa",  # RFC 8375
    "lan",
    "home",
    "corp",
    "intranet",
    "private",
    "localdomain",
    "test",  # RFC 6761
    "example",  # RFC 2606
)


@dataclass(frozen=True)
class NamePolicy:
    """What the operator lets the CA certify of an endpoint besides public DNS names."""

    private_names: bool = False
    ip_addresses: bool = False


def endpoint_host(endpoint_url: str | None) -> str | None:
    """The host of the agent's endpoint, if a certificate could name it at all: an IP address
    or a plain DNS name (lower case, no trailing dot); 422 for anything else."""
    host = urlsplit(endpoint_url).hostname if endpoint_url else None
    if host is None or is_ip_address(host):
        return host
    name = host.rstrip(".")
    if not _DNS_NAME.fullmatch(name) or name == "invalid" or name.endswith(".invalid"):
        raise UncertifiableEndpoint(
            f"The endpointUrl's host {host!r} cannot be named in a certificate: "
            "use a plain DNS name or an IP address."
        )
    return name


def _under(name: str, suffixes: tuple[str, ...]) -> bool:
    return any(name == suffix or name.endswith("." + suffix) for suffix in suffixes)


def why_not(host: str, policy: NamePolicy) -> str | None:
    """Why the CA may not certify ``host`` whoever claims it, or None when it may."""
    if is_ip_address(host):
        return None if policy.ip_addresses else "an IP address (AGENTHUB_CERTIFY_IP_ADDRESSES)"
    if host.rsplit(".", 1)[-1].isdigit():  # "127.1": a resolver reads it as an address
        return "a name a resolver reads as an address"
    if policy.private_names:
        return None
    if _under(host, LOOPBACK_SUFFIXES):
        return "a loopback name (AGENTHUB_CERTIFY_PRIVATE_NAMES)"
    if "." not in host or _under(host, PRIVATE_SUFFIXES):
        return "a private name (AGENTHUB_CERTIFY_PRIVATE_NAMES)"
    return None


async def _claimed_by_another(db: AsyncSession, agent: Agent, name: str) -> bool:
    """Whether a live agent other than ``agent`` serves at ``name`` (any port or path), or
    holds a live certificate naming it (it may have moved since)."""
    certified = await db.exec(
        select(Certificate.serial)
        .where(
            col(Certificate.dns_name) == name,
            col(Certificate.agent_id) != agent.id,
            col(Certificate.revoked_at).is_(None),
            col(Certificate.not_after) > utcnow(),
        )
        .limit(1)
    )
    if certified.first() is not None:
        return True
    rows = await db.exec(
        select(Agent.endpoint_url).where(
            col(Agent.deleted_at).is_(None),
            col(Agent.id) != agent.id,
            func.lower(col(Agent.endpoint_url)).contains(name, autoescape=True),
        )
    )
    for url in rows:
        try:
            host = urlsplit(url).hostname if url else None
        except ValueError:
            continue
        if host is not None and host.rstrip(".") == name:
            return True
    return False


async def endpoint_name(db: AsyncSession, agent: Agent, policy: NamePolicy) -> str | None:
    """The name of the agent's endpoint its next certificate carries, or None."""
    host = endpoint_host(agent.endpoint_url)
    if host is None:
        return None
    reason = why_not(host, policy)
    if reason is None and not is_ip_address(host) and await _claimed_by_another(db, agent, host):
        reason = "a name another live agent's endpointUrl uses"
    if reason is not None:
        logger.info("agent %s: its certificate does not name %r: %s", agent.id, host, reason)
        return None
    return host


def is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
