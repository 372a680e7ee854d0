"""A registered agent calling an A2A endpoint of another kit agent: a call token on every
request (``httpx.Auth``), so the callee knows who calls, as with an AIP call. Give it to
the ``httpx.AsyncClient`` that a2a-sdk's client uses."""

from __future__ import annotations

from collections.abc import Generator

import httpx

from agenthub.keys import AgentKey
from agenthub.signing import mint_call_token


class CallTokenAuth(httpx.Auth):
    """``Authorization: Bearer <call token>`` for ``callee_id``, bound to each request's
    method, URL and body (so a body streamed in parts is read first)."""

    requires_request_body = True

    def __init__(self, key: AgentKey, *, caller_id: str, callee_id: str) -> None:
        self.key = key
        self.caller_id = caller_id
        self.callee_id = callee_id

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        call = mint_call_token(
            self.key,
            caller_id=self.caller_id,
            callee_id=self.callee_id,
            method=request.method,
            url=str(request.url),
            body=request.content,
        )
        request.headers["Authorization"] = f"Bearer {call.token}"
        yield request
