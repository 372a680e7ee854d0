"""A live hub under uvicorn and kit clients for it, for the group stream tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agenthub import AgentKey, HubClient
from app.config import Settings
from app.main import create_app
from tests.support.groups import STREAM_SETTINGS, MakeMember
from tests.support.hub import REGISTRATION_TOKEN, card, empty_tables
from tests.support.live import LiveServer
from tests.support.parts import parts


@pytest.fixture
async def live(settings: Settings) -> AsyncIterator[LiveServer]:
    server = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    try:
        yield server
        # every stream the test opened has let go of its subscription (no leaked tasks)
        app: Any = server.app
        for _ in range(100):
            if parts(app).broker.queued_frames() == 0 and not parts(app).broker.active_channels():
                break
            await asyncio.sleep(0.05)
        assert not parts(app).broker.active_channels(), "a stream outlived its client"
        assert parts(app).metrics.open_streams._value.get() == 0
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


@pytest.fixture
async def make_member(live: LiveServer) -> AsyncIterator[MakeMember]:
    clients: list[HubClient] = []

    async def make(name: str) -> HubClient:
        kit = HubClient(live.url, key=AgentKey.generate())
        await kit.register(card(name, kit.key), registration_token=REGISTRATION_TOKEN)
        clients.append(kit)
        return kit

    yield make
    for kit in clients:
        await kit.aclose()
