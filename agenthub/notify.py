"""Notification mode (GB/Z A.3): the partner pushes results to the leader's URL until acked.

Callback URLs that point at link-local or cloud metadata addresses are refused unless the
agent is configured to allow them: a leader must not turn a partner into a way in.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

from agenthub.errors import UnsafeCallbackError
from agenthub.keys import AgentKey
from agenthub.signing import mint_call_token

logger = logging.getLogger(__name__)

NOTIFICATION_TOKEN_HEADER = "X-ACPS-AIP-Notification-Token"  # noqa: S105
DELIVERY_DEADLINE_SECONDS = 300.0
FIRST_BACKOFF_SECONDS = 0.1
MAX_BACKOFF_SECONDS = 10.0
DELIVERY_TIMEOUT_SECONDS = 10.0
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


def _unsafe(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return address.is_link_local or address in METADATA_ADDRESSES or address.is_multicast


async def check_callback_url(url: str, *, allow_link_local: bool = False) -> None:
    """Raise UnsafeCallbackError unless ``url`` is an http(s) URL to an ordinary address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeCallbackError("The notification URL must be an absolute http(s) URL.")
    if allow_link_local:
        return
    host = parts.hostname.lower().rstrip(".")
    if host in METADATA_HOSTS:
        raise UnsafeCallbackError(f"The notification URL points at a metadata service ({host}).")
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise UnsafeCallbackError(f"The notification host {host!r} does not resolve.") from exc
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    for address in addresses:
        if _unsafe(address):
            raise UnsafeCallbackError(
                f"The notification URL resolves to {address}, a link-local or metadata address."
            )


class NotificationSender:
    """Delivers each config's notifications in order, retrying with backoff until a 2xx."""

    def __init__(
        self,
        *,
        key: AgentKey,
        agent_id: str,
        http: httpx.AsyncClient,
        deadline_seconds: float = DELIVERY_DEADLINE_SECONDS,
    ) -> None:
        self.key = key
        self.agent_id = agent_id
        self.http = http
        self.deadline = deadline_seconds
        self.delivered = 0
        self.attempts = 0
        self.given_up: list[tuple[str, str]] = []
        self._queues: dict[str, asyncio.Queue[tuple[str, Mapping[str, Any]]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def deliver(self, config: Mapping[str, Any], leader_id: str, event: Mapping[str, Any]) -> None:
        config_id = str(config["id"])
        queue = self._queues.setdefault(config_id, asyncio.Queue())
        queue.put_nowait((leader_id, event))
        worker = self._workers.get(config_id)
        if worker is None or worker.done():
            self._workers[config_id] = asyncio.create_task(self._run(config, queue))

    async def drain(self, timeout: float | None = None) -> None:
        await asyncio.wait_for(asyncio.gather(*(q.join() for q in self._queues.values())), timeout)

    async def aclose(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _run(
        self, config: Mapping[str, Any], queue: asyncio.Queue[tuple[str, Mapping[str, Any]]]
    ) -> None:
        while True:
            leader_id, event = await queue.get()
            try:
                await self._push(config, leader_id, event)
            finally:
                queue.task_done()

    async def _push(
        self, config: Mapping[str, Any], leader_id: str, event: Mapping[str, Any]
    ) -> None:
        url = str(config["url"])
        body = orjson.dumps(event)
        deadline = time.monotonic() + self.deadline
        backoff = FIRST_BACKOFF_SECONDS
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
                response = await self.http.post(
                    url, content=body, headers=headers, timeout=DELIVERY_TIMEOUT_SECONDS
                )
                if 200 <= response.status_code < 300:
                    self.delivered += 1
                    return
                logger.info("notification to %s answered %s", url, response.status_code)
            except httpx.TransportError as exc:
                logger.info("notification to %s failed: %s", url, exc)
            if time.monotonic() + backoff > deadline:
                logger.warning("gave up notifying %s of %s", url, event.get("id"))
                self.given_up.append((url, str(event.get("id"))))
                return
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
