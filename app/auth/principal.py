"""Who is calling, as the services see it: a plain value, and the checks made of it. Nothing
here knows HTTP (``auth.current`` reads the request and makes these)."""

from __future__ import annotations

from dataclasses import dataclass

from app.agents.models import Agent
from app.auth.errors import KeyReplaced, UnknownAgent


@dataclass(frozen=True)
class Principal:
    """The caller of a route open to agents and to the operator."""

    agent: Agent | None
    is_operator: bool

    @property
    def agent_id(self) -> str | None:
        return self.agent.id if self.agent else None


def check_token_key(token_thumbprint: str | None, registered_thumbprint: str | None) -> None:
    """The token's agent is registered (``registered_thumbprint``: its key's thumbprint,
    ``None`` when it is not) with the key the token was bound to (its ``cnf.jkt``)."""
    if registered_thumbprint is None:
        raise UnknownAgent("The token's agent is not registered (any more).")
    if token_thumbprint != registered_thumbprint:
        raise KeyReplaced("The token was issued for a key the agent has since replaced.")
