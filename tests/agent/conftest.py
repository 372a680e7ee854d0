"""A live hub under uvicorn and agents with real endpoints, for point-to-point tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from app.agent import Agent, AgentKey, TaskContext, TaskHandler
from app.config import Settings
from app.main import create_app
from tests.conftest import REGISTRATION_TOKEN, _empty_tables
from tests.live import LiveServer, bound_socket


class EchoHandler(TaskHandler):
    """Echoes the command's text back as the product."""

    async def on_start(self, task: TaskContext) -> None:
        if task.text == "refuse":
            await task.reject("I refuse")
            return
        await task.working("echoing")
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}]
        )

    async def on_continue(self, task: TaskContext) -> None:
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}], message="again"
        )


class AskHandler(TaskHandler):
    """Asks a question first, then answers with what it was told."""

    async def on_start(self, task: TaskContext) -> None:
        await task.await_input("what should I echo?")

    async def on_continue(self, task: TaskContext) -> None:
        for i in range(3):
            await task.progress(f"step {i}")
        await task.add_product({"id": "report", "dataItems": [{"type": "text", "text": "a"}]})
        await task.add_product(
            {"id": "report", "dataItems": [{"type": "text", "text": "b"}]}, append=True
        )
        await task.await_completion(message=f"told: {task.text}")


class LiveHub:
    def __init__(self, server: LiveServer, settings: Settings) -> None:
        self.server = server
        self.settings = settings
        self.url = server.url


@pytest.fixture
async def live_hub(settings: Settings) -> AsyncIterator[LiveHub]:
    server = await LiveServer(create_app(settings)).start()
    try:
        yield LiveHub(server, settings)
    finally:
        await server.stop()
        await _empty_tables(settings.database_url)


MakeLiveAgent = Callable[..., Awaitable[Agent]]


@pytest.fixture
async def make_live_agent(live_hub: LiveHub) -> AsyncIterator[MakeLiveAgent]:
    agents: list[Agent] = []
    servers: list[LiveServer] = []

    async def make(
        name: str,
        handler: TaskHandler | None = None,
        *,
        serve: bool = True,
        public_url: str | None = None,
        **kwargs: Any,
    ) -> Agent:
        sock = bound_socket()
        port = sock.getsockname()[1]
        agent = Agent(
            live_hub.url,
            key=AgentKey.generate(),
            handler=handler,
            public_url=public_url or f"http://127.0.0.1:{port}/",
            **kwargs,
        )
        await agent.register(
            {"name": name, "description": f"{name} for tests"},
            registration_token=REGISTRATION_TOKEN,
        )
        agents.append(agent)
        server = LiveServer(agent.asgi, sock=sock, lifespan="off")
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
