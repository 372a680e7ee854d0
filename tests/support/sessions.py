"""A live hub and its agents for the GB/Z session tests (tests/api/test_gbz_elements.py,
test_session_release.py): uvicorn on loopback, kit clients over real HTTP."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from agenthub import HubClient
from app.config import Settings
from app.main import create_app
from tests.support.groups import STREAM_SETTINGS
from tests.support.hub import empty_tables, registered
from tests.support.live import LiveServer

MakeClient = Callable[[str], Awaitable[HubClient]]


@contextlib.asynccontextmanager
async def live_hub(settings: Settings) -> AsyncIterator[tuple[LiveServer, MakeClient]]:
    """A live hub, and a maker of registered agents' clients for it (closed afterwards)."""
    server = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    clients: list[HubClient] = []

    async def make(name: str) -> HubClient:
        client = await registered(server.url, name)
        clients.append(client)
        return client

    try:
        yield server, make
    finally:
        for client in clients:
            await client.aclose()
        await server.stop()
        await empty_tables(settings.database_url)


async def new_session(leader: HubClient, receivers: list[dict[str, Any]]) -> dict[str, Any]:
    response = await leader.request("POST", "/v1/sessions", json={"receivers": receivers})
    assert response.status_code == 201, response.text
    return dict(response.json())


def p2p(*agents: HubClient) -> list[dict[str, Any]]:
    return [{"agentId": a.agent_id, "mode": "p2p"} for a in agents]


def grouped(*agents: HubClient) -> list[dict[str, Any]]:
    return [{"agentId": a.agent_id, "mode": "group"} for a in agents]


async def posted(client: HubClient, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = await client.request("POST", path, json=body)
    assert response.status_code == status, response.text
    return response.json()


async def got(client: HubClient, path: str, **params: Any) -> Any:
    response = await client.request("GET", path, params=params)
    assert response.status_code == 200, response.text
    return response.json()
