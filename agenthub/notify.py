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

    def _client_for(self, url: str) -> httpx.AsyncClient:
        """The pool of ``url``'s destination (scheme, name, port)."""
        parts = urlsplit(url)
        destination = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1].lower()}"
        client = self._clients.pop(destination, None)
        if client is None:
            verify: ssl.SSLContext | bool = True
            if parts.scheme == "https" and self.tls is not None:
                verify = self.tls.push
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
        if self.tls is not None and url.startswith("https:"):
            await self.tls.ensure()
        client = self._client_for(url)
        while True:
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
            extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
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
                status = None
                logger.info("notification to %s failed: %s", url, exc)
            if not transient(status) or not await retry.pause():
                break
        logger.warning("gave up notifying %s of %s", url, event.get("id"))
        self.given_up.append((url, str(event.get("id"))))
