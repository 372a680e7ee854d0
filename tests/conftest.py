"""Shared fixtures: a migrated database (SQLite, or PostgreSQL when asked), a hub app, agents.
Helpers live in tests/support/."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from pytest_timeout import get_env_settings

from agenthub import AgentKey, HubClient
from app.config import Settings
from app.main import create_app
from app.schema import migrate
from tests.support import hangs, schedule, workers
from tests.support.hub import (
    HUB_BASE,
    OPERATOR_TOKEN,
    REGISTRATION_TOKEN,
    MakeAgent,
    card,
    empty_tables,
    hub_settings,
)
from tests.support.live import SERVER_ERROR_MARKERS, free_port

# A property's examples take what a loaded machine gives them: no deadline per example and no
# "input generation is slow" health check (both measure the machine, not the code; one failed a
# CI run with the two stores' passes side by side). The number of examples stays.
hypothesis_settings.register_profile(
    "agenthub", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("agenthub")

_UNDO_ISOLATION = pytest.StashKey[Callable[[], None]]()


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker gets its own database, Redis and ports (``tests.support.workers``)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        config.stash[_UNDO_ISOLATION] = workers.isolate(workerinput["workerid"])


def pytest_unconfigure(config: pytest.Config) -> None:
    if undo := config.stash.get(_UNDO_ISOLATION, None):
        undo()


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files the everyday loop leaves out marked slow; under xdist, the longest files
    first (``tests.support.schedule``)."""
    schedule.leave_out_of_the_everyday_loop(items)
    if hasattr(config, "workerinput"):
        schedule.longest_files_first(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """A test near pytest-timeout's limit prints what it waits for (``tests.support.hangs``)."""
    reporter = item.config.pluginmanager.get_plugin("terminalreporter")
    capture = item.config.pluginmanager.get_plugin("capturemanager")

    def write(text: str) -> None:
        # to the terminal, past the test's own capture (what a hung test printed is never shown)
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            if reporter is not None:
                reporter.write(text, flush=True)
            else:  # an xdist worker: its stderr reaches the controller's log
                sys.__stderr__.write(text)
                sys.__stderr__.flush()

    timer = hangs.watchdog(item.nodeid, get_env_settings(item.config).timeout, write)
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()


class _ServerErrors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if any(marker in record.getMessage() for marker in SERVER_ERROR_MARKERS):
            self.records.append(record)


@pytest.fixture(autouse=True)
def no_server_errors() -> Iterator[None]:
    """Fail a test whose in-process hub (or agent) answered a 500 or let an exception
    escape. Hubs run as processes are checked by tests/support (cli, replicas)."""
    handler = _ServerErrors()
    loggers = [logging.getLogger(name) for name in ("app.api.problems", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    if handler.records:
        pytest.fail(
            "the hub logged a server error: "
            + "; ".join(f"{r.name}: {r.getMessage()} {r.exc_text or ''}" for r in handler.records)
        )


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
    return hub_settings(database_url, tmp_path)


@pytest.fixture
async def hub(settings: Settings) -> AsyncIterator[Any]:
    """The hub app with its lifespan running; tables emptied afterwards."""
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application
    await empty_tables(settings.database_url)


@pytest.fixture
async def client(hub: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=hub)
    async with httpx.AsyncClient(transport=transport, base_url=HUB_BASE) as http:
        yield http


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


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(name="free_port")
def free_port_fixture() -> int:
    return free_port()
