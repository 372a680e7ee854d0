"""The hub under test: its tokens and issuer, its settings, and helpers for reading its answers."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlmodel import SQLModel

import app.tables  # noqa: F401
from agenthub import AgentKey, HubClient
from app.config import Settings
from app.db import make_engine

OPERATOR_TOKEN = "operator-secret-for-tests"
REGISTRATION_TOKEN = "registration-secret-for-tests"
ISSUER = "agenthub-test"
HUB_BASE = "http://hub.test"


def hub_settings(database_url: str, tmp_path: Path, **overrides: Any) -> Settings:
    """The suite's hub: its own key file, both tokens set, the Redis broker when CI asks."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "issuer": ISSUER,
        "signing_key_file": tmp_path / "hub-key.pem",
        "operator_token": OPERATOR_TOKEN,
        "registration_token": REGISTRATION_TOKEN,
        "open_registration": False,
        "max_body_bytes": 64 * 1024,
        # CI runs the suite a second time on PostgreSQL with the Redis broker
        "broker_url": os.environ.get("AGENTHUB_TEST_REDIS_URL") or "memory://",
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


async def empty_tables(database_url: str) -> None:
    engine = make_engine(database_url)
    async with engine.begin() as conn:
        for table in reversed(SQLModel.metadata.sorted_tables):
            await conn.execute(text(f"DELETE FROM {table.name}"))
    await engine.dispose()


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


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    """Assert that ``response`` is a problem+json document with ``status``; return it."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert {"type", "title", "detail"} <= body.keys()
    return body


async def registered(url: str, name: str) -> HubClient:
    """A kit client for a new agent registered at the hub at ``url`` (a live server)."""
    kit = HubClient(url, key=AgentKey.generate())
    await kit.register(card(name, kit.key), registration_token=REGISTRATION_TOKEN)
    return kit
