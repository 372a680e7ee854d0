"""One object for one agent: its hub client, its endpoint (partner and leader roles), its
record keeping. The pieces stay usable on their own."""

from __future__ import annotations

import os
from typing import Any

import httpx
from starlette.types import Receive, Scope, Send

from agenthub.directory import PeerDirectory
from agenthub.endpoint import AgentEndpoint
from agenthub.errors import NotRegisteredError
from agenthub.hub import HubClient
from agenthub.inbox import NotificationInbox
from agenthub.keys import AgentKey
from agenthub.leader import Leader
from agenthub.notify import NotificationSender
from agenthub.partner import TaskHandler
from agenthub.protocol.agents import AgentCard
from agenthub.recorder import HubRecorder
from agenthub.runtime import PartnerRuntime

CALL_TIMEOUT_SECONDS = 60.0


class Agent:
    """An agent taking part through the hub.

    ``public_url`` is where others reach its endpoint (``Agent.asgi``, mounted anywhere or run
    alone); it is registered as the agent's ``endpointUrl``. Pushed notifications arrive at
    ``{public_url}/notifications``.
    """

    def __init__(
        self,
        hub_url: str,
        *,
        key: AgentKey,
        agent_id: str | None = None,
        handler: TaskHandler | None = None,
        public_url: str | None = None,
        hub_jwks: dict[str, Any] | None = None,
        verify_answers: bool = True,
        allow_link_local_callbacks: bool = False,
        hub_http: httpx.AsyncClient | None = None,
    ) -> None:
        self.key = key
        self.handler = handler
        self.public_url = public_url
        self.allow_link_local_callbacks = allow_link_local_callbacks
        self.hub = HubClient(hub_url, key=key, agent_id=agent_id, hub_jwks=hub_jwks, http=hub_http)
        self.http = httpx.AsyncClient(timeout=CALL_TIMEOUT_SECONDS)
        self.directory = PeerDirectory(self.hub)
        self.recorder = HubRecorder(self.hub)
        self.inbox = NotificationInbox()
        self.leader = Leader(
            self.hub,
            directory=self.directory,
            recorder=self.recorder,
            inbox=self.inbox,
            http=self.http,
            verify_answers=verify_answers,
        )
        self._endpoint: AgentEndpoint | None = None
        self._notifier: NotificationSender | None = None

    @classmethod
    def from_key_file(cls, hub_url: str, key_file: str | os.PathLike[str], **kwargs: Any) -> Agent:
        return cls(hub_url, key=AgentKey.load_or_create(key_file), **kwargs)

    @property
    def agent_id(self) -> str:
        if self.hub.agent_id is None:
            raise NotRegisteredError("register the agent (or pass agent_id) first")
        return self.hub.agent_id

    @property
    def notifications_url(self) -> str:
        if self.public_url is None:
            raise NotRegisteredError("the agent has no public_url to be notified at")
        return f"{self.public_url.rstrip('/')}/notifications"

    async def register(
        self, card: dict[str, Any], *, registration_token: str | None = None
    ) -> AgentCard:
        body = dict(card)
        if self.public_url and "endpointUrl" not in body:
            body["endpointUrl"] = self.public_url
        return await self.hub.register(body, registration_token=registration_token)

    @property
    def endpoint(self) -> AgentEndpoint:
        if self._endpoint is None:
            runtime = None
            if self.handler is not None:
                self._notifier = NotificationSender(
                    key=self.key, agent_id=self.agent_id, http=self.http
                )
                runtime = PartnerRuntime(
                    agent_id=self.agent_id,
                    handler=self.handler,
                    recorder=self.recorder,
                    notifier=self._notifier,
                )
            self._endpoint = AgentEndpoint(
                agent_id=self.agent_id,
                key=self.key,
                directory=self.directory,
                runtime=runtime,
                inbox=self.inbox,
                public_url=self.public_url,
                allow_link_local_callbacks=self.allow_link_local_callbacks,
            )
        return self._endpoint

    @property
    def notifier(self) -> NotificationSender | None:
        return self._notifier

    @property
    def asgi(self) -> Agent:
        """The endpoint as an ASGI app (the agent itself): mount it, or run it with uvicorn."""
        return self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry; the endpoint is built on first use, once the agent has its id."""
        if scope["type"] == "lifespan":
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
                message = await receive()
            if message["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
            return
        await self.endpoint.app(scope, receive, send)

    async def aclose(self) -> None:
        await self.recorder.aclose()
        if self._notifier is not None:
            await self._notifier.aclose()
        await self.http.aclose()
        await self.hub.aclose()
