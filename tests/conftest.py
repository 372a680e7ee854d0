"""Shared fixtures: a migrated database (SQLite, or PostgreSQL when asked), a hub app, agents."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlmodel import SQLModel

import app.models  # noqa: F401
from app.agent import AgentKey, HubClient
from app.cli import migrate
from app.config import Settings
from app.db import make_engine
from app.main import create_app

OPERATOR_TOKEN = "operator-secret-for-tests"
REGISTRATION_TOKEN = "registration-secret-for-tests"
ISSUER = "agenthub-test"
HUB_BASE = "http://hub.test"


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """AGENTHUB_TEST_DATABASE_URL (PostgreSQL in CI) or a fresh SQLite file, migrated once."""
    url = os.environ.get("AGENTHUB_TEST_DATABASE_URL")
    if not url:
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'hub.db'}"
    migrate(url)
    return url


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,
        database_url=database_url,
        issuer=ISSUER,
        signing_key_file=tmp_path / "hub-key.pem",
        operator_token=OPERATOR_TOKEN,
        registration_token=REGISTRATION_TOKEN,
        open_registration=False,
        max_body_bytes=64 * 1024,
        # CI runs the suite a second time on PostgreSQL with the Redis broker
        broker_url=os.environ.get("AGENTHUB_TEST_REDIS_URL") or "memory://",
    )


async def _empty_tables(database_url: str) -> None:
    engine = make_engine(database_url)
    async with engine.begin() as conn:
        for table in reversed(SQLModel.metadata.sorted_tables):
            await conn.execute(text(f"DELETE FROM {table.name}"))
    await engine.dispose()


@pytest.fixture
async def hub(settings: Settings) -> AsyncIterator[Any]:
    """The hub app with its lifespan running; tables emptied afterwards."""
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application
    await _empty_tables(settings.database_url)


@pytest.fixture
async def client(hub: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=hub)
    async with httpx.AsyncClient(transport=transport, base_url=HUB_BASE) as http:
        yield http


MakeAgent = Callable[..., Awaitable[HubClient]]


def card(name: str, key: AgentKey, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": name,
        "description": extra.pop("description", f"{name}, an agent for tests"),
        "skills": extra.pop("skills", []),
        "publicJwk": key.public_jwk,
    }
    body.update(extra)
    return body


@pytest.fixture
def make_agent(client: httpx.AsyncClient) -> MakeAgent:
    """Register an agent through the kit and return its authenticated-ready HubClient."""

    async def make(name: str = "agent", **extra: Any) -> HubClient:
        key = AgentKey.generate()
        kit = HubClient(HUB_BASE, key=key, http=client)
        await kit.register(card(name, key, **extra), registration_token=REGISTRATION_TOKEN)
        return kit

    return make


@pytest.fixture
def operator_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {OPERATOR_TOKEN}"}


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    """Assert that ``response`` is a problem+json document with ``status``; return it."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert {"type", "title", "detail"} <= body.keys()
    return body


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(name="free_port")
def free_port_fixture() -> int:
    from tests.live import free_port

    return free_port()
