"""The token endpoint: an agent's signed assertion in, the hub's access token out."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request

from agenthub.protocol.auth import TokenRequest, TokenResponse
from app.deps import KeysDep, SessionDep, SettingsDep
from app.errors import problem_responses
from app.services.auth import exchange_assertion

router = APIRouter(prefix="/v1/auth", tags=["auth"])


@router.post("/token", responses=problem_responses(400, 401, 413, 422))
async def create_token(
    body: Annotated[
        TokenRequest,
        Body(openapi_examples={"assertion": {"value": {"assertion": "eyJhbGciOiJFUzI1NiIs…"}}}),
    ],
    session: SessionDep,
    settings: SettingsDep,
    keys: KeysDep,
    request: Request,
) -> TokenResponse:
    response = await exchange_assertion(
        session,
        keys=keys,
        issuer=settings.issuer,
        assertion=body.assertion,
        lifetime_seconds=settings.access_token_seconds,
    )
    request.app.state.metrics.tokens_issued.inc()
    return response
