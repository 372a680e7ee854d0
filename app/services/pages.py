"""Opaque cursors for list routes."""

from __future__ import annotations

import base64
import binascii
import math
from datetime import datetime
from typing import Any

import orjson

from app.errors import BadRequest

CURSOR_INT_LIMIT = 2**62  # ids, offsets and seqs; an SQL BIGINT holds it on every store


def encode_cursor(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(values)).decode().rstrip("=")


def decode_cursor(cursor: str, *, types: tuple[Any, ...]) -> list[Any]:
    """The values in ``cursor``, checked against ``types`` (one per value)."""
    try:
        values = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError) as exc:
        raise BadRequest("The cursor is not one this hub issued.") from exc
    if (
        not isinstance(values, list)
        or len(values) != len(types)
        or not all(_fits(v, t) for v, t in zip(values, types, strict=True))
    ):
        raise BadRequest("The cursor is not one this hub issued.")
    return values


def _fits(value: Any, kind: Any) -> bool:
    """A cursor's value of the expected type, in a range the store can compare against."""
    if isinstance(value, bool) or not isinstance(value, kind):
        return False
    if isinstance(value, int):
        return -CURSOR_INT_LIMIT <= value <= CURSOR_INT_LIMIT
    if isinstance(value, float):
        return math.isfinite(value)
    return not isinstance(value, str) or len(value) <= 1000


def cursor_time(text: str) -> datetime:
    """A timestamp that came back inside a cursor: the hub's are always in UTC."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError as exc:
        raise BadRequest("The cursor is not one this hub issued.") from exc
    if when.tzinfo is None or when.utcoffset() is None:
        raise BadRequest("The cursor is not one this hub issued.")
    return when
