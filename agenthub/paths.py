"""Ids in the hub's URL paths: one path segment each, whatever the id holds.

An id can come from anyone (a call token's unverified ``kid``, a peer's message): quoted
whole, ``../sessions`` or ``me/events`` stays one segment of the path it was meant for
instead of reaching another route with the agent's credentials.
"""

from __future__ import annotations

from urllib.parse import quote


def segment(value: str) -> str:
    """``value`` as one percent-encoded path segment; ``.``, ``..`` and "" are refused
    (clients and proxies resolve dot segments, so no quoting makes them safe)."""
    if value in ("", ".", ".."):
        raise ValueError(f"{value!r} cannot be an id in a URL path")
    return quote(value, safe="")
