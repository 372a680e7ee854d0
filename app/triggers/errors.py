"""Triggers' errors."""

from __future__ import annotations

from app.errors import Conflict


class TooManyTriggers(Conflict):
    """The group, or a task, has as many pending triggers as the hub allows."""

    code = "too-many-triggers"
