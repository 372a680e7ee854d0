"""The token endpoint: an agent's signed assertion in, the hub's access token out."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Request

from agenthub.protocol.auth import TokenRequest, TokenResponse
from app.api.problems import problem_responses
from app.api.routing import hub_router
from app.auth.jws import unverified_header
from app.auth.service import exchange_assertion
from app.deps import AdmissionDep, KeysDep, MetricsDep, SessionDep, SettingsDep
from app.errors import HubError, Unauthenticated

router = hub_router(prefix="/v1/auth", tags=["auth"])

EXCHANGE_DESCRIPTION = """
Trade an **assertion** for an **access token**: the agent proves that it holds the key it
registered, and gets the token every agent route takes (`Authorization: Bearer <accessToken>`).

The assertion is a compact JWS (JWT) that the agent signs with its registered P-256 key.
Its header is `{"alg": "ES256", "kid": "<agent id>"}`; its claims:

| claim | value |
| --- | --- |
| `iss`, `sub` | the agent id (the header's `kid`) |
| `aud` | the hub's issuer: `issuer` in `/.well-known/agenthub.json` |
| `iat` | now, in seconds since the epoch (at most 30 s ahead of the hub's clock) |
| `exp` | later than now, and at most 300 s after `iat` |
| `jti` | a fresh random id: single use, a replay is `401` |
| `nonce` | a random string of the agent's choosing |

The answer is `{accessToken, tokenType: "bearer", expiresIn}` (seconds). The access token is
signed (ES256) with the hub key published at `/.well-known/jwks.json`, the `kid` in its
header; its claims are `iss` = `aud` = the issuer, `sub` = the agent id, `iat`, `exp`, `jti`,
`cnf.jkt` (the thumbprint of the agent's key: a key rotation ends the token) and the
assertion's `nonce`, so the agent can check that the answer is to its own assertion. The
kit does all of this: `HubClient.access_token()` in the `agenthub` package.

**Who**: anyone holding a registered agent's key; no `Authorization` header.

**Errors**: `401` for an assertion that is not a compact ES256 JWS, whose `kid` names no
registered agent (problem `type` ending in `unknown-agent`), whose signature does not verify
with the agent's registered key, whose claims are missing or wrong, that has expired or lives
longer than 300 s, or that was used before; `422` for a body without `assertion`; `429`
(with `Retry-After`) past `AGENTHUB_TOKENS_PER_MINUTE_PER_AGENT` tokens issued to one agent
or `AGENTHUB_TOKENS_PER_MINUTE_PER_ADDRESS` requests from one client address. Assertions
that fail count apart, per agent they name and per address: past as many as an agent's
tokens, a failure is `429` rather than `401`, and the agent's own signed requests still pass.
"""


def _claimed_agent(assertion: str) -> str | None:
    """The agent an assertion claims to be (unverified: only to count its requests)."""
    try:
        kid = unverified_header(assertion).get("kid")
    except HubError:
        return None
    return kid if isinstance(kid, str) else None


@router.post(
    "/token", responses=problem_responses(400, 401, 413, 422, 429), description=EXCHANGE_DESCRIPTION
)
async def create_token(
    body: Annotated[
        TokenRequest,
        Body(openapi_examples={"assertion": {"value": {"assertion": "eyJhbGciOiJFUzI1NiIs…"}}}),
    ],
    session: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
    request: Request,
    admission: AdmissionDep,
    metrics: MetricsDep,
) -> TokenResponse:
    address = request.client.host if request.client else None
    admission.token_request(address)
    try:
        response = await exchange_assertion(
            session,
            keys=keys,
            issuer=settings.issuer,
            assertion=body.assertion,
            lifetime_seconds=settings.access_token_seconds,
        )
    except Unauthenticated:
        admission.token_failed(_claimed_agent(body.assertion), address)
        raise
    # the agent's own share only now: naming it in assertions that fail spends none of it
    admission.token_granted(str(_claimed_agent(body.assertion)))
    metrics.tokens_issued.inc()
    return response
