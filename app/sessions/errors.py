"""Sessions' errors: finding one, its receivers, its leader, its state."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, InvalidInput, NotFound


class SessionNotFound(NotFound):
    """No session with this id (or not one the caller takes part in)."""

    code = "session-not-found"


class BadReceivers(InvalidInput):
    """A receiver named twice in one mode, or the leader named as a receiver."""

    code = "bad-receivers"


class BridgeReceivers(InvalidInput):
    """A bridge session's receivers are its leader alone, in mode p2p (and cannot change)."""

    code = "bridge-receivers"


class UnknownBridgeCaller(InvalidInput):
    """A bridge names as its caller an application the operator never registered."""

    code = "unknown-bridge-caller"


class NotAP2pReceiver(InvalidInput):
    """The agent is one of the session's receivers in group mode only."""

    code = "not-a-p2p-receiver"


class NotAGroupReceiver(InvalidInput):
    """The agent is one of the session's receivers in p2p mode only."""

    code = "not-a-group-receiver"


class NotSessionLeader(Forbidden):
    """Only the session's leader may do this."""

    code = "not-session-leader"


class SessionIdTaken(Conflict):
    """A new session under an id that is taken."""

    code = "session-id-taken"


class SessionClosed(Conflict):
    """The session is closed, and a closed session stays closed."""

    code = "session-closed"
