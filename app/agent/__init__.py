"""The agent kit: what an agent developer imports to take part. Imports only app.protocol."""

from app.agent.errors import HubIdentityError, HubRequestError, KitError, NotRegisteredError
from app.agent.hub import HubClient
from app.agent.keys import AgentKey

__all__ = [
    "AgentKey",
    "HubClient",
    "HubIdentityError",
    "HubRequestError",
    "KitError",
    "NotRegisteredError",
]
