"""The application factory: settings in, a ready FastAPI app out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api.openapi import install_openapi
from app.api.routes import agents, auth, groups, hub, inbox, sessions, tasks
from app.api.sse import SendWatchdog
from app.auth.keys import load_or_create_hub_keys
from app.broker import make_broker
from app.config import Settings
from app.db import make_engine, make_session_factory
from app.errors import install_error_handlers
from app.metrics import HubMetrics, MetricsMiddleware
from app.middleware import BodySizeLimit, RejectNul
from app.services.auth import purge_expired_jtis
from app.services.message_writer import MessageWriter
from app.services.semantic import SemanticReranker
from app.services.triggers import fire_due_triggers

logger = logging.getLogger(__name__)

JTI_PURGE_INTERVAL_SECONDS = 60


async def _purge_jtis_forever(app: FastAPI) -> None:
    while True:
        await asyncio.sleep(JTI_PURGE_INTERVAL_SECONDS)
        try:
            async with app.state.session_factory() as session:
                await purge_expired_jtis(session)
        except Exception:
            logger.exception("purging used jtis failed; will try again")


async def _fire_due_triggers_forever(app: FastAPI) -> None:
    """Trigger deadlines: checked on a timer, fired exactly once even across restarts."""
    interval = app.state.settings.trigger_poll_seconds
    while True:
        try:
            async with app.state.session_factory() as session:
                await fire_due_triggers(session)
        except Exception:
            logger.exception("firing due triggers failed; will try again")
        await asyncio.sleep(interval)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    engine = make_engine(settings.database_url)
    app.state.engine = engine
    broker = make_broker(settings.broker_url)
    await broker.start()
    app.state.broker = broker
    app.state.session_factory = make_session_factory(engine, broker=broker)
    app.state.message_writer = writer = MessageWriter(engine, broker)
    writer.start()
    app.state.send_watchdog = watchdog = SendWatchdog()
    watchdog.start()
    app.state.keys = load_or_create_hub_keys(settings.signing_key_file)
    app.state.reranker = (
        await asyncio.to_thread(SemanticReranker.load) if settings.semantic_rerank else None
    )
    background = [
        asyncio.create_task(_purge_jtis_forever(app)),
        asyncio.create_task(_fire_due_triggers_forever(app)),
    ]
    try:
        yield
    finally:
        for task in background:
            task.cancel()
        for task in background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await writer.close()
        await watchdog.close()
        await broker.close()
        await engine.dispose()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(
        title="agenthub",
        version="0.1.0",
        summary="An agent interaction hub: registry, two-way authentication, sessions, groups.",
        lifespan=lifespan,
        generate_unique_id_function=lambda route: route.name,
    )
    app.state.settings = settings
    app.state.metrics = HubMetrics()
    install_error_handlers(app)
    install_openapi(app)
    for module in (hub, auth, inbox, agents, sessions, tasks, groups):
        app.include_router(module.router)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RejectNul)
    app.add_middleware(MetricsMiddleware, metrics=app.state.metrics)
    return app
