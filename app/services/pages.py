"""Opaque cursors for list routes."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

import orjson

from app.errors import BadRequest


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
        or not all(
            isinstance(v, t) and not isinstance(v, bool) for v, t in zip(values, types, strict=True)
        )
    ):
        raise BadRequest("The cursor is not one this hub issued.")
    return values


def cursor_time(text: str) -> datetime:
    """A timestamp that came back inside a cursor."""
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise BadRequest("The cursor is not one this hub issued.") from exc
