"""Agent ↔ agent proofs: call tokens on requests, signatures on answers (API.md)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import httpx

from agenthub.errors import (
    AnswerSignatureError,
    CallTokenError,
    CallTokenUnverified,
    SignatureError,
    SignatureMismatch,
)
from agenthub.keys import AgentKey
from agenthub.protocol.agents import AGENT_ID_SHAPE
from agenthub.protocol.jwk import b64url
from agenthub.protocol.tokens import (
    CLOCK_SKEW_SECONDS,
    MAX_CALL_TOKEN_LIFETIME_SECONDS,
)
from agenthub.tokens import header_of, verify

CALL_TOKEN_LIFETIME_SECONDS = 60
SIGNATURE_HEADER = "X-Agent-Signature"


def normalize_url(url: str) -> str:
    """URLs compared for ``htu``: without a trailing slash, scheme and host in lower case."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}".rstrip("/")


def body_digest(body: bytes) -> str:
    return b64url(hashlib.sha256(body).digest())


@dataclass(frozen=True)
class CallToken:
    token: str
    nonce: str


def mint_call_token(
    key: AgentKey,
    *,
    caller_id: str,
    callee_id: str,
    method: str,
    url: str,
    body: bytes,
    lifetime_seconds: int = CALL_TOKEN_LIFETIME_SECONDS,
) -> CallToken:
    now = int(time.time())
    nonce = secrets.token_urlsafe(12)
    claims = {
        "iss": caller_id,
        "sub": caller_id,
        "aud": callee_id,
        "iat": now,
        "exp": now + lifetime_seconds,
        "jti": secrets.token_urlsafe(16),
        "nonce": nonce,
        "htm": method.upper(),
        "htu": url,
        "bodySha256": body_digest(body),
    }
    return CallToken(key.sign(claims, kid=caller_id), nonce)


def sign_answer(
    key: AgentKey, *, callee_id: str, caller_id: str, nonce: str | None, signed_bytes: bytes
) -> str:
    claims: dict[str, Any] = {
        "iss": callee_id,
        "aud": caller_id,
        "iat": int(time.time()),
        "bodySha256": body_digest(signed_bytes),
    }
    if nonce:
        claims["nonce"] = nonce
    return key.sign(claims, kid=callee_id)


def caller_of(token: str) -> str:
    """The caller id a call token claims (its header's kid), before any check."""
    try:
        kid = header_of(token).get("kid")
    except SignatureError as exc:
        raise CallTokenError(f"The call token is malformed: {exc}.") from exc
    if not isinstance(kid, str) or not kid:
        raise CallTokenError("The call token's header has no kid.")
    if not AGENT_ID_SHAPE.fullmatch(kid):
        raise CallTokenError("The call token's kid is not an agent id.")
    return kid


def check_call_token(
    token: str,
    caller_jwk: dict[str, Any],
    *,
    caller_id: str,
    callee_id: str,
    method: str,
    urls: set[str],
    body: bytes,
) -> dict[str, Any]:
    """The call token's claims if it is the caller's, for us, for this request; else raise."""
    try:
        claims = verify(token, caller_jwk)
    except SignatureMismatch as exc:
        raise CallTokenUnverified(f"The call token {exc}.") from exc
    except SignatureError as exc:
        raise CallTokenError(f"The call token {exc}.") from exc
    now = int(time.time())
    checks = [
        (
            claims.get("iss") == caller_id and claims.get("sub") == caller_id,
            "iss and sub must be the caller",
        ),
        (claims.get("aud") == callee_id, "the call token is for another agent (aud)"),
        (claims.get("htm") == method.upper(), "the call token is for another HTTP method (htm)"),
        (
            normalize_url(str(claims.get("htu", ""))) in {normalize_url(u) for u in urls},
            "the call token is for another URL (htu)",
        ),
        (claims.get("bodySha256") == body_digest(body), "the body does not match bodySha256"),
        (isinstance(claims.get("jti"), str) and bool(claims.get("jti")), "jti is missing"),
        (isinstance(claims.get("nonce"), str), "nonce is missing"),
    ]
    for ok, why in checks:
        if not ok:
            raise CallTokenError(why)
    iat, exp = claims.get("iat"), claims.get("exp")
    if not isinstance(iat, int) or not isinstance(exp, int):
        raise CallTokenError("iat and exp must be integers")
    if exp <= now:
        raise CallTokenError("the call token has expired")
    if iat > now + CLOCK_SKEW_SECONDS:
        raise CallTokenError("the call token was issued in the future")
    if exp - iat > MAX_CALL_TOKEN_LIFETIME_SECONDS:
        raise CallTokenError(
            f"the call token lives longer than {MAX_CALL_TOKEN_LIFETIME_SECONDS} s"
        )
    return claims


def check_answer(
    signature: str | None,
    callee_jwk: dict[str, Any],
    *,
    callee_id: str,
    caller_id: str,
    nonce: str | None,
    signed_bytes: bytes,
) -> None:
    """Raise unless ``signature`` is the callee's signature over this answer to our call."""
    if not signature:
        raise AnswerSignatureError(f"The answer carries no {SIGNATURE_HEADER}.")
    try:
        claims = verify(signature, callee_jwk)
    except SignatureError as exc:
        raise AnswerSignatureError(f"The answer's signature {exc}: forged or tampered.") from exc
    if claims.get("iss") != callee_id or claims.get("aud") != caller_id:
        raise AnswerSignatureError("The answer is signed for another pair of agents.")
    if claims.get("nonce") != nonce:
        raise AnswerSignatureError("The answer does not echo our call's nonce (replayed?).")
    if claims.get("bodySha256") != body_digest(signed_bytes):
        raise AnswerSignatureError("The answer's body does not match its signature (tampered).")


class JtiCache:
    """Call-token ids seen until they expire: a second use is a replay.

    The ids live in memory only, so a token issued before the cache began (before the
    endpoint's last start) is refused: after a restart no replay can be told from a first
    use. A caller whose clock runs behind ours may see that for its first calls after a
    restart; it mints a new token and calls again.
    """

    def __init__(self, started_at: float | None = None) -> None:
        self._seen: dict[str, int] = {}
        self._next_purge = 0.0
        # iat has whole seconds: a token minted in the second before the start still counts
        self.started_at = int(started_at if started_at is not None else time.time()) - 1

    def use(self, jti: str, exp: int, iat: int | None = None) -> None:
        if iat is not None and iat < self.started_at:
            raise CallTokenError("the call token was issued before this endpoint started")
        now = time.time()
        if now > self._next_purge:
            self._seen = {k: v for k, v in self._seen.items() if v + CLOCK_SKEW_SECONDS > now}
            self._next_purge = now + 30
        if jti in self._seen:
            raise CallTokenError("the call token was already used (replay)")
        self._seen[jti] = exp


class CallTokenAuth(httpx.Auth):
    """httpx auth that signs each request with a fresh call token for ``callee_id``.

    Lets any httpx-based client (acps-sdk's ``AipRpcClient`` among them) make calls that
    kit endpoints accept. Checking the answer's signature is the caller's business.
    """

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
