"""The hub's own routes: health, readiness, identity documents, metrics."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from sqlalchemy import text

from agenthub.protocol.auth import JWKS_PATH, HubMetadata
from app.api.problems import problem_responses
from app.api.routing import base_url, hub_router
from app.auth.current import bearer_token, may_read_metrics
from app.auth.errors import MetricsTokenNeeded
from app.deps import BrokerDep, EngineDep, KeysDep, MetricsDep, ReadinessDep, SettingsDep
from app.errors import SchemaNotMigrated, StoreUnavailable
from app.operator.health import answers
from app.schema import schema_state

router = hub_router(tags=["hub"])

API_VERSION = "v1"


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: `200` while the process is up. It checks nothing else (see `/readyz`).

    **Who**: anyone; no authentication.
    """
    return {"status": "ok"}


@router.get("/readyz", responses=problem_responses(503))
async def readyz(engine: EngineDep, broker: BrokerDep, readiness: ReadinessDep) -> dict[str, str]:
    """Readiness: `200` when the SQL store answers with its schema at the migrations' head,
    so the hub can serve. The body's `broker` is `ok`, or `degraded` while the broker (Redis)
    does not answer within 2 s: a replica still takes posts then (they are recorded in SQL,
    and its streams catch up from there), so a broker outage takes no replica out.

    **Who**: anyone; no authentication.

    **Errors**: `503`, problem `type` ending in `schema-not-migrated` until `agenthub migrate`
    has run, `store-unavailable` while the store does not answer.
    """
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        schema = None if readiness.schema_ready else await schema_state(engine)
    except Exception as exc:
        raise StoreUnavailable("The SQL store does not answer.") from exc
    if schema is not None:
        if not schema.at_head:
            raise SchemaNotMigrated(f"The store's {schema.describe()}.")
        readiness.schema_at_head()  # a schema does not go back by itself
    answered = await answers(broker.ping())
    return {"status": "ready", "broker": "ok" if answered == "ok" else "degraded"}


@router.get("/.well-known/agenthub.json", response_model_by_alias=True)
async def get_hub_metadata(request: Request, settings: SettingsDep) -> HubMetadata:
    """What an agent needs to authenticate: the hub's `issuer` (the `aud` of its
    assertions), the `tokenEndpoint`, the `jwksUri` of the keys that sign access tokens, the
    `apiVersion`, and the agents' CA certificate (`caUri`) and revocation list (`crlUri`).
    The URLs start with `AGENTHUB_PUBLIC_URL` (on loopback, by default, the address the hub
    serves at), never with a request's `Host` header.

    **Who**: anyone; no authentication.
    """
    base = base_url(request, settings.public_url)
    return HubMetadata(
        issuer=settings.issuer,
        token_endpoint=f"{base}/v1/auth/token",
        jwks_uri=f"{base}{JWKS_PATH}",
        api_version=API_VERSION,
        ca_uri=f"{base}/.well-known/agenthub-ca.pem",
        crl_uri=f"{base}/.well-known/agenthub-crl.pem",
    )


@router.get(JWKS_PATH)
async def get_jwks(keys: KeysDep) -> dict[str, Any]:
    """The hub's public signing keys, a JWK Set: an access token verifies with the key whose
    `kid` is in the token's header.

    **Who**: anyone; no authentication.
    """
    return keys.jwks()


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {"content": {"text/plain": {}}, "description": "Prometheus text"},
        **problem_responses(401),
    },
)
async def get_metrics(request: Request, settings: SettingsDep, metrics: MetricsDep) -> Response:
    """Prometheus text: requests and latencies by route, open streams, deliveries, messages
    recorded, stream catch-ups, tokens issued (this process only; scrape every replica).

    **Who**: anyone while `AGENTHUB_METRICS_TOKEN` is unset; with it, a bearer of that token
    (or the operator token). The shipped nginx keeps it off the load balancer either way:
    scrape the replicas.
    """
    if not may_read_metrics(settings, bearer_token(request)):
        raise MetricsTokenNeeded("/metrics needs the metrics token (AGENTHUB_METRICS_TOKEN).")
    return Response(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")
