"""Event streams' errors."""

from __future__ import annotations

from app.errors import BadRequest, RateLimited, Unavailable


class BadLastEventId(BadRequest):
    """A ``Last-Event-ID`` (or ``after``) that is no seq of an event."""

    code = "bad-last-event-id"


class ReplicaFull(Unavailable):
    """The replica holds as many streams as it may; another replica, or later, may take one."""

    code = "replica-full"


class TooManyStreams(RateLimited):
    """The agent holds as many streams as it may (on every replica): close one first."""

    code = "too-many-streams"
