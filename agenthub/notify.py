"""Notification mode (GB/Z A.3): the partner pushes results to the leader's URL until acked.

Where it may push is ``agenthub.callbacks``' policy, checked (and the address pinned) before
every attempt. Pushes have HTTP clients of their own, one small pool per destination with
short timeouts, so a callback that never answers holds up only its own pushes: not the
agent's calls, nor pushes to anyone else.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

from agenthub.callbacks import CallbackPolicy, pin_callback
from agenthub.errors import UnsafeCallbackError
from agenthub.keys import AgentKey
from agenthub.lanes import Backoff, Lanes, transient
from agenthub.protocol.aic import aic_host
from agenthub.signing import mint_call_token
from agenthub.tls import AgentTls

logger = logging.getLogger(__name__)

NOTIFICATION_TOKEN_HEADER = "X-ACPS-AIP-Notification-Token"  # noqa: S105
DELIVERY_DEADLINE_SECONDS = 300.0
MAX_ATTEMPTS = 30
FIRST_BACKOFF_SECONDS = 0.1
MAX_BACKOFF_SECONDS = 10.0
PUSH_TIMEOUT = httpx.Timeout(10.0, connect=3.0, pool=5.0)
PUSH_LIMITS = httpx.Limits(max_connections=4, max_keepalive_connections=2)
MAX_DESTINATIONS = 128
"""Destinations with a pool of their own; the least recently used one is closed past it."""


_Push = tuple[Mapping[str, Any], str, Mapping[str, Any]]  # (its config, leader, event)


UNKNOWN_ISSUER = "unable to get local issuer certificate"
"""OpenSSL's reason when no trusted CA issued the peer's certificate."""


class NotificationSender:
    """Delivers each config's notifications in order, retrying a transient failure with
    backoff (``agenthub.lanes``) until a 2xx."""

    def __init__(
        self,
        *,
        key: AgentKey,
        agent_id: str,
        policy: CallbackPolicy | None = None,
        deadline_seconds: float = DELIVERY_DEADLINE_SECONDS,
        tls: AgentTls | None = None,
    ) -> None:
        self.key = key
        self.tls = tls  # https pushes present the agent's certificate
        self.agent_id = agent_id
        self.policy = policy or CallbackPolicy()
        self.deadline = deadline_seconds
        self._clients: OrderedDict[str, httpx.AsyncClient] = OrderedDict()
        self._web_pki: set[str] = set()  # https receivers whose certificate is no agent's
        self._closing: set[asyncio.Task[None]] = set()
        self.delivered = 0
        self.attempts = 0
        self.given_up: list[tuple[str, str]] = []
        self.backoff = Backoff(
            FIRST_BACKOFF_SECONDS,
            MAX_BACKOFF_SECONDS,
            deadline=deadline_seconds,
            attempts=MAX_ATTEMPTS,
        )
        # one ordered lane per config: its notifications arrive in order, each config's
        # pushes wait for no other's
        self._lanes: Lanes[str, _Push] = Lanes(self._send, name="agenthub-notify")

    def deliver(self, config: Mapping[str, Any], leader_id: str, event: Mapping[str, Any]) -> None:
        self._lanes.put(str(config["id"]), (config, leader_id, event))

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every notification was delivered or given up (``TimeoutError`` when
        ``timeout`` passed first)."""
        if not await self._lanes.drain(timeout=timeout):
            raise TimeoutError

    async def aclose(self) -> None:
        await self._lanes.aclose()
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()

    @staticmethod
    def _destination(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1].lower()}"

    def _agent_tls(self, url: str) -> bool:
        """Whether a push to ``url`` goes to an agent's endpoint over mutual TLS: the hub's
        CA alone is trusted and the certificate must name the leader (``{aic}.aic.invalid``
        in the handshake). A receiver that fails this is tried once with the system's CAs
        (and no agent certificate), and is remembered as such."""
        return (
            self.tls is not None
            and url.startswith("https:")
            and self._destination(url) not in self._web_pki
        )

    def drop_pools(self) -> None:
        """Close every pooled connection (the agent's certificate was renewed); a push in
        flight on one is retried."""
        clients, self._clients = list(self._clients.values()), OrderedDict()
        for client in clients:
            closing = asyncio.get_running_loop().create_task(client.aclose())
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    def _client_for(self, url: str) -> httpx.AsyncClient:
        """The pool of ``url``'s destination (scheme, name, port)."""
        destination = self._destination(url)
        client = self._clients.pop(destination, None)
        if client is None:
            verify: ssl.SSLContext | bool = True
            if self._agent_tls(url) and self.tls is not None:
                verify = self.tls.client
            client = httpx.AsyncClient(timeout=PUSH_TIMEOUT, limits=PUSH_LIMITS, verify=verify)
            if len(self._clients) >= MAX_DESTINATIONS:
                _, oldest = self._clients.popitem(last=False)
                asyncio.get_running_loop().create_task(oldest.aclose())
        self._clients[destination] = client
        return client

    async def _send(self, _config_id: str, pushes: list[_Push]) -> None:
        for config, leader_id, event in pushes:
            await self._push(config, leader_id, event)

    async def _push(
        self, config: Mapping[str, Any], leader_id: str, event: Mapping[str, Any]
    ) -> None:
        url = str(config["url"])
        body = orjson.dumps(event)
        retry = self.backoff.start()
        while True:
            agent_tls = self._agent_tls(url)
            try:
                if agent_tls and self.tls is not None:
                    await self.tls.ensure()
            except Exception as exc:  # no certificate to present (the hub away): try later
                logger.info("no certificate for the push to %s yet: %s", url, exc)
                if not await retry.pause():
                    break
                continue
            client = self._client_for(url)
            self.attempts += 1
            call = mint_call_token(
                self.key,
                caller_id=self.agent_id,
                callee_id=leader_id,
                method="POST",
                url=url,
                body=body,
            )
            headers = {"Authorization": f"Bearer {call.token}", "Content-Type": "application/json"}
            if config.get("token"):
                headers[NOTIFICATION_TOKEN_HEADER] = str(config["token"])
            try:
                target = await pin_callback(url, self.policy)
            except UnsafeCallbackError as exc:  # it resolves elsewhere now: no more pushes
                logger.warning("not notifying %s: %s", url, exc)
                break
            sni = aic_host(leader_id) if agent_tls else target.sni_hostname
            extensions = {"sni_hostname": sni} if sni else {}
            try:
                response = await client.post(
                    target.url,
                    content=body,
                    headers={**headers, "Host": target.host_header},
                    extensions=extensions,
                )
                if 200 <= response.status_code < 300:
                    self.delivered += 1
                    return
                status: int | None = response.status_code
                logger.info("notification to %s answered %s", url, status)
            except httpx.TransportError as exc:
                if (
                    agent_tls
                    and UNKNOWN_ISSUER in str(exc)
                    and len(self._web_pki) < MAX_DESTINATIONS
                ):
                    # a receiver whose certificate no CA of the hub's issued (an impostor with
                    # one fails on the name instead, and stays refused): the web's CAs
                    destination = self._destination(url)
                    self._web_pki.add(destination)
                    if self._clients.get(destination) is client:
                        del self._clients[destination]
                        await client.aclose()
                    continue
                status = None
                logger.info("notification to %s failed: %s", url, exc)
            if not transient(status) or not await retry.pause():
                break
        logger.warning("gave up notifying %s of %s", url, event.get("id"))
        self.given_up.append((url, str(event.get("id"))))
