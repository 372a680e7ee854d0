"""The application factory: settings in, a ready FastAPI app out."""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from starlette.types import ASGIApp

import agenthub.tracing as tracing
from agenthub import __version__
from app.a2a_groups import routes as a2a_groups
from app.agents import routes as agents
from app.agents.last_seen import note_seen
from app.agents.semantic import SemanticReranker
from app.api.lean_dispatch import lean_routes
from app.api.openapi import install_openapi
from app.api.problems import install_error_handlers
from app.auth import routes as auth
from app.auth.ca import load_or_create_ca, read_trusted_cas
from app.auth.keys import HubKeys, load_or_create_hub_keys
from app.auth.service import purge_expired_jtis
from app.broker import make_broker
from app.broker.base import is_redis_url
from app.certificates import routes as certificates
from app.certificates.revocation_list import RevocationLists
from app.certificates.service import purge_expired_certificates
from app.checks import BROKER_TIMEOUT_SECONDS, reason, registration_policy
from app.config import Settings, masked_url
from app.console import install_console
from app.console.home_routes import install_home
from app.core.unit_of_work import make_session_factory, transaction
from app.db import make_engine, pool_in_use, time_pool_waits
from app.groups import message_routes as group_messages
from app.groups import routes as groups
from app.groups.flow import fire_due_floors
from app.inbox import routes as inbox
from app.limits import Admission
from app.members import routes as members
from app.metrics import RATE_SAMPLE_SECONDS, HubMetrics, Rates
from app.middleware import BodySizeLimit, MetricsMiddleware, RejectNul, StreamHandoff
from app.models.types import utcnow
from app.oauth import routes as oauth
from app.operator import hub_routes as hub
from app.operator import routes as operator
from app.records.ingest import Ingest
from app.schema import schema_state
from app.sessions import routes as sessions
from app.stopping import stop
from app.streams.operator_feed import OperatorFeed
from app.streams.presence import Presence
from app.streams.sse import SendWatchdog, Streams
from app.tasks import routes as tasks
from app.triggers import routes as triggers
from app.triggers.service import fire_due_triggers, fire_ready_sweep, fire_ready_triggers

if TYPE_CHECKING:
    from app.broker.leases import RedisLeases

logger = logging.getLogger(__name__)

JTI_PURGE_INTERVAL_SECONDS = 60
EXPIRED_CERTIFICATES_KEPT = timedelta(days=7)
BACKOFF_MAX_SECONDS = 60


async def _every(seconds: float, what: str, job: Callable[[], Awaitable[None]]) -> None:
    """Run ``job`` every ``seconds``. When it fails: one warning, then back off (doubling,
    up to a minute) and stay quiet until it works again, which is logged too."""
    failures = 0
    while True:
        try:
            await job()
        except Exception as exc:
            failures += 1
            if failures == 1:
                logger.warning("%s failed (%s); retrying with back-off", what, reason(exc))
            logger.debug("%s failed", what, exc_info=True)
            delay = min(seconds * 2**failures, BACKOFF_MAX_SECONDS)
        else:
            if failures:
                logger.info("%s works again, after %d failed attempts", what, failures)
            failures, delay = 0, seconds
        await asyncio.sleep(delay)


def _background_jobs(app: FastAPI) -> list[asyncio.Task[None]]:
    settings: Settings = app.state.settings

    async def purge() -> None:
        async with transaction(app.state.session_factory) as session:
            await purge_expired_jtis(session)
            # kept a week past their end: an agent's newest certificate still shows, expired
            await purge_expired_certificates(session, before=utcnow() - EXPIRED_CERTIFICATES_KEPT)

    async def fire() -> None:
        """Trigger deadlines: checked on a timer, fired exactly once even across restarts."""
        factory = app.state.session_factory
        await fire_due_triggers(factory)
        await fire_ready_sweep(factory)
        await fire_due_floors(factory)  # turns that timed out: the floor opens

    async def sample() -> None:
        app.state.rates.sample()

    return [
        asyncio.create_task(_every(RATE_SAMPLE_SECONDS, "sampling rates", sample)),
        asyncio.create_task(
            _every(JTI_PURGE_INTERVAL_SECONDS, "purging used jtis and old certificates", purge)
        ),
        asyncio.create_task(_every(settings.trigger_poll_seconds, "firing due triggers", fire)),
    ]


async def _log_summary(app: FastAPI) -> None:
    """What an operator wants to see at start: store, broker, issuer, key, registration."""
    settings: Settings = app.state.settings
    keys: HubKeys = app.state.keys
    try:
        state = await schema_state(app.state.engine)
    except Exception as exc:
        logger.warning(
            "store %s does not answer: %s", masked_url(settings.database_url), reason(exc)
        )
    else:
        app.state.schema_ready = state.at_head
        log = logger.info if state.at_head else logger.warning
        log("store %s: %s", masked_url(settings.database_url), state.describe())
    if is_redis_url(settings.broker_url):
        try:
            async with asyncio.timeout(BROKER_TIMEOUT_SECONDS):
                await app.state.broker.ping()
        except Exception as exc:
            logger.warning(
                "broker %s does not answer: %s; replicas do not hear each other's posts "
                "until it does",
                masked_url(settings.broker_url),
                "no answer" if isinstance(exc, TimeoutError) else reason(exc),
            )
    logger.info(
        "agenthub-hub %s: issuer %r, broker %s, signing key %s (%s, kid %s)",
        __version__,
        settings.issuer,
        masked_url(settings.broker_url),
        settings.signing_key_file,
        "made now" if keys.created else "loaded",
        keys.kid,
    )
    ca = app.state.ca
    logger.info(
        "agents' CA %s (%s): %s",
        settings.ca_paths[1],
        "made now" if ca.created else "loaded",
        ca.certificate.subject.rfc4514_string(),
    )
    policy = registration_policy(settings)
    (logger.warning if policy.startswith("closed") else logger.info)("registration: %s", policy)


def shared_leases(settings: Settings) -> RedisLeases | None:
    """Stream caps per agent count every replica's streams when the broker is Redis."""
    if not is_redis_url(settings.broker_url):
        return None
    from app.broker.leases import RedisLeases

    return RedisLeases(settings.broker_url, ttl_seconds=3 * settings.keepalive_seconds + 5)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    engine = make_engine(settings.database_url, pool_timeout=settings.database_pool_timeout_seconds)
    app.state.engine = engine
    app.state.schema_ready = False
    broker = make_broker(settings.broker_url)
    await broker.start()
    app.state.broker = broker
    app.state.session_factory = make_session_factory(engine, broker=broker, note_seen=note_seen)
    metrics: HubMetrics = app.state.metrics
    app.state.ingest = ingest = Ingest(
        app.state.session_factory,
        broker=broker,
        on_written=metrics.recorded,
        on_ended=functools.partial(fire_ready_triggers, app.state.session_factory),
    )
    metrics.watch_queues(broker.queued_frames)
    metrics.watch_broker(broker.outbox_events)
    broker.watch_lag(metrics.broker_lag.observe)
    time_pool_waits(engine, metrics.pool_wait.observe, metrics.pool_timeouts.inc)
    metrics.watch_pool(functools.partial(pool_in_use, engine))
    ingest.start()
    app.state.rates = Rates(metrics)
    app.state.operator_feed = feed = OperatorFeed(broker)
    app.state.send_watchdog = watchdog = SendWatchdog()
    watchdog.start()
    app.state.presence = presence = Presence(
        engine,
        interval_seconds=settings.keepalive_seconds,
        max_streams=settings.max_streams,
        max_streams_per_agent=settings.max_streams_per_agent,
        shared=shared_leases(settings),
    )
    app.state.admission = admission = Admission.from_settings(settings)
    app.state.streams = Streams(  # what opening a stream takes, made once
        settings=settings,
        presence=presence,
        admission=admission,
        session_factory=app.state.session_factory,
        broker=broker,
        metrics=metrics,
        watchdog=watchdog,
    )
    presence.start()
    if getattr(app.state, "keys", None) is None:
        app.state.keys = load_or_create_hub_keys(settings.signing_key_file)
    app.state.ca = replace(
        load_or_create_ca(*settings.ca_paths, issuer=settings.issuer),
        trusted=read_trusted_cas(settings.trusted_ca_file),
    )
    app.state.revocation_lists = lists = RevocationLists(
        app.state.session_factory, app.state.ca, seconds=settings.revocation_list_seconds
    )
    metrics.watch_revocation_lists(lambda: lists.signed, lambda: lists.entries)
    app.state.reranker = (
        await asyncio.to_thread(SemanticReranker.load) if settings.semantic_rerank else None
    )
    await _log_summary(app)
    background = _background_jobs(app)
    try:
        yield
    finally:
        await stop(*background)
        await ingest.close()
        await watchdog.close()
        await presence.close()
        await feed.close()
        await broker.close()
        await engine.dispose()


class Hub(FastAPI):
    """FastAPI, with ``StreamHandoff`` outside all middleware (Starlette's own included):
    event streams are written there, on the server's ``send``; and inside it ``LeanRoutes``
    (``app.api.lean_dispatch``): the record routes' posts past FastAPI's router."""

    def build_middleware_stack(self) -> ASGIApp:
        return StreamHandoff(lean_routes(self, super().build_middleware_stack(), DOCUMENTED))


def _native_telemetry() -> dict[str, Any]:
    """FastAPI's native OpenTelemetry (0.16x on): its HTTP server spans (the parent the
    caller's ``traceparent``) when this process traces (``agenthub.tracing.configure``, or
    a provider the operator's own code set), else off. Left on, it asks OpenTelemetry's
    global providers on every request whether it is on: ~2 % of a group post's CPU.
    Metrics and logs stay off: the hub has its Prometheus metrics and its own logs."""
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    on = tracing.on()  # its spans of dependencies, endpoint and serialization: not worth it
    return {"telemetry": {"tracing": on, "operation_spans": False, "metrics": False, "logs": False}}


DOCUMENTED = (
    hub.router,
    auth.router,
    oauth.router,
    inbox.router,
    agents.router,
    certificates.router,
    sessions.router,
    tasks.router,
    groups.router,
    members.router,
    group_messages.router,
    a2a_groups.router,
    triggers.router,
    operator.router,
    oauth.operator_router,
)
"""The hub's routers in the order the API documents them (OpenAPI, /docs)."""
MATCHED_FIRST = (group_messages.router, sessions.router)
"""Included first, so the record routes are the first an app tries: FastAPI tries the app's
routes in turn, its console and docs pages and every router before the request's (~2 us
each), and a group post's router was the tenth (bench.ingest: 0.26 -> 0.24 ms of hub CPU a post).
No two routers' paths overlap, so the order changes no match."""


def create_app(settings: Settings | None = None, *, keys: HubKeys | None = None) -> FastAPI:
    """The hub; ``keys`` are its signing keys when already loaded (else loaded at start)."""
    settings = settings or Settings()
    app = Hub(
        title="agenthub",
        version=__version__,
        summary="An agent interaction hub: registry, two-way authentication, sessions, groups.",
        lifespan=lifespan,
        generate_unique_id_function=lambda route: route.name,
        docs_url=None,  # install_openapi serves /docs and /redoc from the package's assets
        redoc_url=None,
        **_native_telemetry(),
    )
    app.state.settings = settings
    app.state.keys = keys
    app.state.metrics = HubMetrics()
    install_error_handlers(app)
    for router in (*MATCHED_FIRST, *(r for r in DOCUMENTED if r not in MATCHED_FIRST)):
        app.include_router(router)
    install_openapi(app, documented=DOCUMENTED)
    install_console(app)
    install_home(app)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_body_bytes,
        max_post_bytes=settings.max_post_bytes,
    )
    app.add_middleware(RejectNul)
    app.add_middleware(MetricsMiddleware, metrics=app.state.metrics)
    return app
