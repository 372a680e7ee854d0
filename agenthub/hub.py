"""The kit's hub client: register, prove the agent's identity, check the hub's, call the API."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import ssl
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

from agenthub.errors import HubIdentityError, HubRequestError, NotRegisteredError, SignatureError
from agenthub.events import EventStream
from agenthub.groups import Groups
from agenthub.keys import AgentKey
from agenthub.paths import segment
from agenthub.protocol.agents import AgentCard, AgentPage, AgentRegistration, AgentUpdate
from agenthub.protocol.auth import JWKS_PATH, HubMetadata, TokenResponse
from agenthub.protocol.certificates import CertificatePage, IssuedCertificate
from agenthub.protocol.oauth import METADATA_PATH, AuthorizationServerMetadata, ClientStanding
from agenthub.tokens import key_of, verify
from agenthub.transport import http_client

ASSERTION_LIFETIME_SECONDS = 60
REFRESH_MARGIN_SECONDS = 60
DEFAULT_TIMEOUT_SECONDS = 10.0
MAX_REQUESTS_IN_FLIGHT = 32
SAFE_METHODS = frozenset({"GET", "HEAD"})
"""What ``HubClient.request`` sends again after a connection the hub closed under it."""
"""Requests to the hub one agent has under way at once (streams apart)."""


class HubClient:
    """One agent's connection to one hub.

    ``hub_jwks`` pins the hub's keys. Without it the keys are fetched once on first use
    and pinned for the client's life (trust on first use); pass ``hub_jwks`` (e.g. from
    ``pinned_jwks``, saved at registration) to refuse a hub whose key changed.

    ``hub_ca`` (a PEM file) pins the CA of an https hub's certificate, e.g. the agents' CA
    that ``agenthub hub-certificate`` signs with; without it the system's CAs are trusted.

    Kept whole: one method per hub route the kit calls, each a few lines over ``request``,
    which holds the access token (and its one renewal on a 401) and the bound on calls in
    flight that they all share.
    """

    def __init__(
        self,
        base_url: str,
        *,
        key: AgentKey,
        agent_id: str | None = None,
        hub_jwks: dict[str, Any] | None = None,
        http: httpx.AsyncClient | None = None,
        refresh_margin_seconds: int = REFRESH_MARGIN_SECONDS,
        hub_ca: str | os.PathLike[str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.agent_id = agent_id
        self.pinned_jwks = hub_jwks
        verify: ssl.SSLContext | bool = True
        if hub_ca is not None:  # the hub's certificate is checked against this CA alone
            verify = ssl.create_default_context(cafile=os.fspath(hub_ca))
        self._http = http or http_client(timeout=DEFAULT_TIMEOUT_SECONDS, verify=verify)
        # requests past this wait here, in order, not in httpcore's pool (whose queue is
        # scanned on every assignment: with hundreds waiting, an A2A partner opening a
        # session per context spent two thirds of its CPU there, py-spy)
        self._in_flight = asyncio.Semaphore(MAX_REQUESTS_IN_FLIGHT)
        self._owns_http = http is None
        self._metadata: HubMetadata | None = None
        self._oauth_metadata: AuthorizationServerMetadata | None = None
        self._token: str | None = None
        self._token_expires_at = 0.0
        self._refresh_margin = refresh_margin_seconds
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> HubClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    # -- the hub's identity ------------------------------------------------------------

    async def metadata(self) -> HubMetadata:
        if self._metadata is None:
            response = await self._http.get(f"{self.base_url}/.well-known/agenthub.json")
            self._metadata = HubMetadata.model_validate(self._json(response))
        return self._metadata

    async def oauth_metadata(self) -> AuthorizationServerMetadata:
        """The hub as an OAuth 2.0 authorization server (RFC 8414): read once."""
        if self._oauth_metadata is None:
            response = await self._http.get(f"{self.base_url}{METADATA_PATH}")
            self._oauth_metadata = AuthorizationServerMetadata.model_validate(self._json(response))
        return self._oauth_metadata

    async def client_standing(self, client_id: str) -> ClientStanding:
        """Whether an OAuth client (an agent or an operator's application) may still call;
        ``HubRequestError`` (404) when the hub knows no such client."""
        path = f"/v1/oauth/clients/{segment(client_id)}"
        return ClientStanding.model_validate(self._json(await self.request("GET", path)))

    async def hub_keys(self) -> dict[str, Any]:
        if self.pinned_jwks is None:
            response = await self._http.get(f"{self.base_url}{JWKS_PATH}")
            self.pinned_jwks = self._json(response)
        return self.pinned_jwks

    def _check_hub_token(self, token: str, *, issuer: str, nonce: str) -> dict[str, Any]:
        assert self.pinned_jwks is not None
        try:
            key = key_of(self.pinned_jwks, token)
            if key is None:
                raise HubIdentityError("The access token is signed by a key the hub never showed.")
            claims = verify(token, key)
        except SignatureError as exc:
            raise HubIdentityError(f"The hub's access token does not verify: {exc}.") from exc
        if claims.get("nonce") != nonce:
            raise HubIdentityError("The hub's access token does not echo our nonce.")
        if claims.get("iss") != issuer or claims.get("aud") != issuer:
            raise HubIdentityError("The access token names another issuer.")
        if claims.get("sub") != self.agent_id:
            raise HubIdentityError("The access token was issued for another agent.")
        exp = claims.get("exp")
        if not isinstance(exp, int) or exp <= time.time():
            raise HubIdentityError("The access token is already expired.")
        return claims

    # -- the agent's identity ----------------------------------------------------------

    async def register(
        self, card: AgentRegistration | dict[str, Any], *, registration_token: str | None = None
    ) -> AgentCard:
        body = (
            card
            if isinstance(card, AgentRegistration)
            else AgentRegistration.model_validate(
                {**card, "publicJwk": card.get("publicJwk", self.key.public_jwk)}
            )
        )
        if body.public_jwk.public_dict() != self.key.public_jwk:
            raise ValueError("the card's publicJwk is not this agent's key")
        await self.hub_keys()
        headers = {"Authorization": f"Bearer {registration_token}"} if registration_token else {}
        response = await self._http.post(
            f"{self.base_url}/v1/agents", headers=headers, json=body.to_wire()
        )
        registered = AgentCard.model_validate(self._json(response))
        self.agent_id = registered.id
        return registered

    def make_assertion(
        self, *, issuer: str, nonce: str, lifetime_seconds: int = ASSERTION_LIFETIME_SECONDS
    ) -> str:
        if self.agent_id is None:
            raise NotRegisteredError("register the agent (or pass agent_id) first")
        now = int(time.time())
        claims = {
            "iss": self.agent_id,
            "sub": self.agent_id,
            "aud": issuer,
            "iat": now,
            "exp": now + lifetime_seconds,
            "jti": secrets.token_urlsafe(16),
            "nonce": nonce,
        }
        return self.key.sign(claims, kid=self.agent_id)

    async def authenticate(self) -> str:
        """Prove our identity to the hub and check the hub's in return; keep the token."""
        issuer = (await self.metadata()).issuer
        await self.hub_keys()
        nonce = secrets.token_urlsafe(16)
        response = await self._http.post(
            f"{self.base_url}/v1/auth/token",
            json={"assertion": self.make_assertion(issuer=issuer, nonce=nonce)},
        )
        answer = TokenResponse.model_validate(self._json(response))
        claims = self._check_hub_token(answer.access_token, issuer=issuer, nonce=nonce)
        self._token = answer.access_token
        self._token_expires_at = float(claims["exp"])
        return self._token

    async def access_token(self) -> str:
        """A valid access token, refreshed shortly before it expires."""
        async with self._lock:
            if self._token is None or time.time() > self._token_expires_at - self._refresh_margin:
                await self.authenticate()
            assert self._token is not None
            return self._token

    # -- the API -------------------------------------------------------------------------

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """An authenticated call; a 401 re-authenticates once (e.g. after a key rotation).
        A GET or HEAD whose pooled connection the hub closed as it was sent (an idle
        keep-alive timing out: "disconnected without sending a response") goes again once,
        on a new connection; other methods are not repeated (the hub may have acted)."""
        extra = kwargs.pop("headers", {})  # kept for the retries too
        url = f"{self.base_url}{path}"
        for attempt in range(2):
            token = await self.access_token()
            headers = {**extra, "Authorization": f"Bearer {token}"}
            async with self._in_flight:
                try:
                    response = await self._http.request(method, url, headers=headers, **kwargs)
                except httpx.RemoteProtocolError:
                    if method.upper() not in SAFE_METHODS:
                        raise
                    response = await self._http.request(method, url, headers=headers, **kwargs)
            if response.status_code != 401 or attempt:
                return response
            self._token = None
        raise AssertionError("unreachable")

    def forget_token(self) -> None:
        """Drop the access token, so the next call authenticates again."""
        self._token = None

    @contextlib.asynccontextmanager
    async def open_stream(
        self, path: str, *, last_event_id: int, timeout: httpx.Timeout
    ) -> AsyncIterator[httpx.Response]:
        """A streaming GET of an SSE route, resuming after ``last_event_id``."""
        headers = {
            "Authorization": f"Bearer {await self.access_token()}",
            "Accept": "text/event-stream",
            "Last-Event-ID": str(last_event_id),
        }
        async with self._http.stream(
            "GET", f"{self.base_url}{path}", headers=headers, timeout=timeout
        ) as response:
            yield response

    def raise_or_json(self, response: httpx.Response) -> Any:
        """The response's JSON, or ``HubRequestError`` carrying its problem document."""
        return self._json(response)

    def inbox(self, *, after: int = 0) -> EventStream:
        """The agent's inbox stream: invitations, applications, task commands, triggers."""
        return EventStream(self, "/v1/agents/me/events", after=after)

    @functools.cached_property
    def groups(self) -> Groups:
        """Group membership, messages and streams (see ``agenthub.groups``)."""
        return Groups(self)

    async def get_agent(self, agent_id: str) -> AgentCard:
        return AgentCard.model_validate(
            self._json(await self.request("GET", f"/v1/agents/{segment(agent_id)}"))
        )

    async def list_agents(self, **params: Any) -> AgentPage:
        query = {k: v for k, v in params.items() if v is not None}
        return AgentPage.model_validate(
            self._json(await self.request("GET", "/v1/agents", params=query))
        )

    async def update_self(self, update: AgentUpdate) -> AgentCard:
        if self.agent_id is None:
            raise NotRegisteredError("register the agent first")
        body = update.model_dump(mode="json", by_alias=True, exclude_unset=True)
        response = await self.request("PATCH", f"/v1/agents/{segment(self.agent_id)}", json=body)
        return AgentCard.model_validate(self._json(response))

    async def rotate_key(self, new_key: AgentKey) -> AgentCard:
        """Register ``new_key`` and switch to it; tokens bound to the old key stop working."""
        card = await self.update_self(AgentUpdate.model_validate({"publicJwk": new_key.public_jwk}))
        self.key = new_key
        self._token = None
        return card

    # -- certificates (agenthub.tls keeps them fresh) ---------------------------------------

    async def ca_certificate(self) -> bytes:
        """The PEM certificate of the hub's CA (the kit pins it on first use)."""
        response = await self._http.get(f"{self.base_url}/.well-known/agenthub-ca.pem")
        if response.status_code >= 400:
            self._json(response)
        return response.content

    async def revocation_list(self) -> bytes:
        """The PEM revocation list of the hub's CA."""
        response = await self._http.get(f"{self.base_url}/.well-known/agenthub-crl.pem")
        if response.status_code >= 400:
            self._json(response)
        return response.content

    async def request_certificate(self, csr_pem: str) -> IssuedCertificate:
        """A certificate for this agent's key, signed by the hub's CA."""
        if self.agent_id is None:
            raise NotRegisteredError("register the agent first")
        response = await self.request(
            "POST", f"/v1/agents/{segment(self.agent_id)}/certificates", json={"csr": csr_pem}
        )
        return IssuedCertificate.model_validate(self._json(response))

    async def certificates(self) -> list[IssuedCertificate]:
        """This agent's certificates that have not expired, newest first (revoked ones with
        their ``revokedAt``), every page."""
        if self.agent_id is None:
            raise NotRegisteredError("register the agent first")
        path = f"/v1/agents/{segment(self.agent_id)}/certificates"
        items: list[IssuedCertificate] = []
        params: dict[str, Any] = {"limit": 500}
        while True:
            page = CertificatePage.model_validate(
                self._json(await self.request("GET", path, params=params))
            )
            items += page.items
            if page.next_cursor is None:
                return items
            params["cursor"] = page.next_cursor

    async def revoke_certificate(self, serial: str) -> None:
        """Put one of this agent's certificates on the hub's revocation list."""
        if self.agent_id is None:
            raise NotRegisteredError("register the agent first")
        path = f"/v1/agents/{segment(self.agent_id)}/certificates/{segment(serial)}"
        self._json(await self.request("DELETE", path))

    async def deregister(self) -> None:
        if self.agent_id is None:
            raise NotRegisteredError("register the agent first")
        response = await self.request("DELETE", f"/v1/agents/{segment(self.agent_id)}")
        self._json(response)
        self._token = None

    @staticmethod
    def _json(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            try:
                problem = response.json()
            except ValueError:
                problem = {"detail": response.text}
            raise HubRequestError(
                response.status_code, problem if isinstance(problem, dict) else {"detail": problem}
            )
        if response.status_code == 204 or not response.content:
            return None
        return response.json()
