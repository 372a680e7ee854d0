"""The hub's OAuth access tokens (RFC 9068) as a caller's proof at a kit partner.

An A2A client that can send only a static ``Authorization: Bearer`` header (most can) gets a
token for this agent from the hub's token endpoint (client credentials: a registered agent by
its key, an application the operator registered by its secret) and calls with it. The
partner checks the token as the hub's OAuth metadata says (RFC 8414: its ``issuer``, and
the hub's JWKS it already pins), that it is for this agent (``aud``) and in date, and the
client's standing at the hub: an agent still registered with the key it had (``cnf.jkt``),
an application not revoked. Standings are cached as cards are (``PEER_CACHE_SECONDS``)."""

from __future__ import annotations

import time

from pydantic import ValidationError

from agenthub.directory import PeerDirectory
from agenthub.errors import CallTokenError, HubRequestError, SignatureError
from agenthub.protocol.jwk import jwk_thumbprint
from agenthub.protocol.oauth import (
    ACCESS_TOKEN_TYPE,
    CALL_SCOPE,
    AgentAccessClaims,
    ClientKind,
)
from agenthub.protocol.tokens import CLOCK_SKEW_SECONDS
from agenthub.tokens import header_of, key_of, verify


def is_hub_access_token(token: str) -> bool:
    """Whether a bearer token says it is an OAuth access token (header ``typ`` at+jwt), not a
    call token (which its caller signs)."""
    try:
        return header_of(token).get("typ") == ACCESS_TOKEN_TYPE
    except SignatureError:
        return False


class HubTokens:
    def __init__(self, directory: PeerDirectory, agent_id: str) -> None:
        self.directory = directory
        self.agent_id = agent_id

    async def proved(self, token: str) -> tuple[str, ClientKind, str | None]:
        """The client a hub access token proves (an agent's or an application's id), its
        kind, and for an agent the thumbprint of the key the token was issued to (None for
        an application); ``CallTokenError`` when it does not prove one for this agent."""
        claims = await self._claims(token)
        if claims.client_kind == "agent":
            await self._agent_stands(claims)
            return claims.sub, claims.client_kind, claims.cnf.get("jkt")
        await self._application_stands(claims.sub)
        return claims.sub, claims.client_kind, None

    async def _claims(self, token: str) -> AgentAccessClaims:
        hub = self.directory.hub
        try:
            issuer = (await hub.oauth_metadata()).issuer
            jwks = await hub.hub_keys()
        except Exception as exc:  # the hub away, or no authorization server
            raise CallTokenError("the hub's token keys could not be read") from exc
        try:
            key = key_of(jwks, token)
            if key is None:
                raise CallTokenError("The access token is signed by no key of the hub.")
            claims = AgentAccessClaims.model_validate(verify(token, key))
        except (SignatureError, ValidationError) as exc:
            raise CallTokenError(f"The access token does not verify: {exc}.") from exc
        now = time.time()
        if claims.iss != issuer:
            raise CallTokenError(f"The access token is not the hub's ({issuer}).")
        if claims.aud != self.agent_id:
            raise CallTokenError("The access token is for another agent.")
        if claims.exp <= now - CLOCK_SKEW_SECONDS:
            raise CallTokenError("The access token has expired.")
        if claims.iat > now + CLOCK_SKEW_SECONDS:
            raise CallTokenError("The access token was issued in the future.")
        if CALL_SCOPE not in claims.scope.split():
            raise CallTokenError(f"The access token's scope lacks {CALL_SCOPE!r}.")
        return claims

    async def _agent_stands(self, claims: AgentAccessClaims) -> None:
        """An agent's token stands while it is registered with the key it was issued to."""
        for refresh in (False, True):
            try:
                card = await self.directory.card(claims.sub, refresh=refresh)
            except HubRequestError as exc:
                raise CallTokenError("The access token's agent is not registered.") from exc
            except Exception as exc:
                raise CallTokenError("the caller could not be looked up at the hub") from exc
            if claims.cnf.get("jkt") == jwk_thumbprint(card.public_jwk):
                return
        raise CallTokenError("The access token's agent has rotated its key since.")

    async def _application_stands(self, client_id: str) -> None:
        try:
            standing = await self.directory.standing(client_id)
        except HubRequestError as exc:
            raise CallTokenError("The access token's client is unknown to the hub.") from exc
        except Exception as exc:
            raise CallTokenError("the caller could not be looked up at the hub") from exc
        if not standing.active:
            raise CallTokenError("The access token's client was revoked.")
