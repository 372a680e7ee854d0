"""A live hub under uvicorn and agents with real endpoints, for point-to-point tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agenthub import Agent, AgentKey, CallbackPolicy, TaskHandler
from agenthub.transport import http_client
from app.config import Settings
from app.main import create_app
from tests.support import LOOPBACK
from tests.support.hub import REGISTRATION_TOKEN, empty_tables
from tests.support.kit import LiveHub, MakeLiveAgent
from tests.support.live import LiveServer, bound_socket


@pytest.fixture
async def live_hub(settings: Settings) -> AsyncIterator[LiveHub]:
    server = await LiveServer(create_app(settings)).start()
    try:
        yield LiveHub(server, settings)
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


@pytest.fixture
async def make_live_agent(live_hub: LiveHub) -> AsyncIterator[MakeLiveAgent]:
    agents: list[Agent] = []
    servers: list[LiveServer] = []
    hub_clients: list[httpx.AsyncClient] = []

    async def make(
        name: str,
        handler: TaskHandler | None = None,
        *,
        serve: bool = True,
        public_url: str | None = None,
        https: bool = True,
        **kwargs: Any,
    ) -> Agent:
        sock = bound_socket()
        port = sock.getsockname()[1]
        scheme = "https" if https else "http"
        # the kit's client to the hub, bounded only against hangs (the kit's own 10 s is a
        # product default, which a loaded machine's PostgreSQL pass once went past)
        if "hub_http" not in kwargs:
            kwargs["hub_http"] = http_client(timeout=LOOPBACK)
            hub_clients.append(kwargs["hub_http"])
        agent = Agent(
            live_hub.url,
            key=AgentKey.generate(),
            handler=handler,
            public_url=public_url or f"{scheme}://127.0.0.1:{port}/",
            plain_http=not https,
            **{"callbacks": CallbackPolicy(allow_private=True), **kwargs},  # all on loopback
        )
        await agent.register(
            {"name": name, "description": f"{name} for tests"},
            registration_token=REGISTRATION_TOKEN,
        )
        agents.append(agent)
        server = LiveServer(agent.asgi, sock=sock, lifespan="off", **await agent.server_options())
        agent.server = server  # type: ignore[attr-defined]
        servers.append(server)
        if serve:
            await server.start()
        return agent

    yield make
    for server in servers:
        await server.stop()
    for agent in agents:
        await agent.aclose()
    for client in hub_clients:
        await client.aclose()
