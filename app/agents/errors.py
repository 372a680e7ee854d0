"""The agent registry's errors."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, InvalidInput, NotFound


class AgentNotFound(NotFound):
    """No agent with this id (or it was deregistered)."""

    code = "agent-not-found"


class UnregisteredAgent(InvalidInput):
    """A body names an agent that is not registered."""

    code = "unregistered-agent"


class InvalidPublicKey(InvalidInput):
    """A ``publicJwk`` that is no P-256 public key."""

    code = "invalid-public-key"


class ProtocolWithoutUrl(InvalidInput):
    """A protocol binding without a url, on an agent without an endpointUrl to default to."""

    code = "protocol-without-url"


class DuplicateProtocolBinding(InvalidInput):
    """Two bindings of the same protocol at the same url (once defaults are filled in)."""

    code = "duplicate-protocol-binding"


class NoA2aBinding(NotFound):
    """The agent declares no A2A binding: it has no A2A Agent Card."""

    code = "no-a2a-binding"


class NotYourAgent(Forbidden):
    """Only the agent itself (or, to deregister it, the operator) may do this."""

    code = "not-your-agent"


class AicTaken(Conflict):
    """A registration under an AIC some agent holds, or held."""

    code = "aic-taken"


class PublicKeyTaken(Conflict):
    """Another agent is registered with this public key."""

    code = "public-key-taken"


class KeyRetired(Conflict):
    """A key the agent retired before: a retired key stays retired."""

    code = "key-retired"
