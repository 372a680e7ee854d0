"""Opaque cursors for list routes, the pager of keyset lists, and the byte bound of pages
that carry message bodies."""

from __future__ import annotations

import base64
import binascii
import math
import operator
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import ColumnElement, Integer, Text, and_, cast, func, or_, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement
from sqlmodel.ext.asyncio.session import AsyncSession

from app.errors import BadCursor

CURSOR_INT_LIMIT = 2**62  # ids, offsets and seqs; an SQL BIGINT holds it on every store
PAGE_BYTES = 4 << 20
"""About the most a page of stored messages holds (``AGENTHUB_MAX_PAGE_BYTES``): a page of
500 messages of 900 KB each was a 450 MB answer, all of it in the hub's memory at once."""


def encode_cursor(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(values)).decode().rstrip("=")


def decode_cursor(cursor: str, *, types: tuple[Any, ...]) -> list[Any]:
    """The values in ``cursor``, checked against ``types`` (one per value)."""
    try:
        values = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError) as exc:
        raise BadCursor("The cursor is not one this hub issued.") from exc
    if (
        not isinstance(values, list)
        or len(values) != len(types)
        or not all(_fits(v, t) for v, t in zip(values, types, strict=True))
    ):
        raise BadCursor("The cursor is not one this hub issued.")
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
        raise BadCursor("The cursor is not one this hub issued.") from exc
    if when.tzinfo is None or when.utcoffset() is None:
        raise BadCursor("The cursor is not one this hub issued.")
    return when


class Keyset:
    """The one pager of keyset lists: an order of columns that ends in a unique key, and the
    cursor that carries the last row's values of them (``kinds``: ``datetime``, ``str`` or
    ``int``, one per column). A page is one query of ``limit + 1`` rows."""

    def __init__(self, *columns: Any, kinds: tuple[type, ...], descending: bool = False) -> None:
        assert len(columns) == len(kinds)
        self.columns = columns
        self.kinds = kinds
        self.descending = descending

    def _after(self, cursor: str) -> ColumnElement[bool]:
        types = tuple(str if kind is datetime else kind for kind in self.kinds)
        values = decode_cursor(cursor, types=types)
        values = [
            cursor_time(v) if kind is datetime else v
            for v, kind in zip(values, self.kinds, strict=True)
        ]
        beyond = operator.lt if self.descending else operator.gt
        clause: ColumnElement[bool] | None = None
        for column, value in reversed(list(zip(self.columns, values, strict=True))):
            here: ColumnElement[bool] = beyond(column, value)
            clause = here if clause is None else or_(here, and_(column == value, clause))
        assert clause is not None
        return clause

    def _cursor(self, values: Sequence[Any]) -> str:
        return encode_cursor([v.isoformat() if isinstance(v, datetime) else v for v in values])

    async def page(
        self,
        db: AsyncSession,
        stmt: Any,
        *,
        cursor: str | None,
        limit: int,
        values: Callable[[Any], Sequence[Any]],
        size: ColumnElement[int] | None = None,
        max_bytes: int = PAGE_BYTES,
    ) -> tuple[list[Any], str | None]:
        """The rows of ``stmt`` after ``cursor``, at most ``limit``, and the next page's
        cursor (``values``: a row's values of the columns), or ``None`` on the last page.
        With ``size`` (a row's bytes, ``stored_size``), the rows that fit in ``max_bytes``
        too: their sizes are read first, then only those rows."""
        if cursor:
            stmt = stmt.where(self._after(cursor))
        order = [c.desc() if self.descending else c for c in self.columns]
        more = None
        if size is not None:
            sizes: Any = select(*self.columns, func.coalesce(size, 0))  # rows, not models
            if stmt.whereclause is not None:
                sizes = sizes.where(stmt.whereclause)
            found = list((await db.exec(sizes.order_by(*order).limit(limit + 1))).all())
            keys, more = fitting(
                [(tuple(r[:-1]), r[-1]) for r in found], limit=limit, max_bytes=max_bytes
            )
            limit = len(keys)
        rows = list((await db.exec(stmt.order_by(*order).limit(limit + 1))).all())
        page = rows[:limit]
        if more is None:
            more = len(rows) > limit
        return page, self._cursor(values(page[-1])) if more and page else None


class _Octets(FunctionElement[int]):
    """The bytes of a value's text in UTF-8 (``length`` counts characters: a page of
    Chinese text was three times its bound)."""

    type = Integer()
    inherit_cache = True


@compiles(_Octets)
def _octets(element: _Octets, compiler: SQLCompiler, **kw: Any) -> str:
    """SQLite (3.40 here has no ``octet_length``): the length of the text as a BLOB."""
    return f"length(CAST({compiler.process(element.clauses, **kw)} AS BLOB))"


@compiles(_Octets, "postgresql")
def _octets_postgresql(element: _Octets, compiler: SQLCompiler, **kw: Any) -> str:
    return f"octet_length({compiler.process(element.clauses, **kw)})"


def stored_size(column: Any) -> ColumnElement[int]:
    """How many bytes a JSON column's value takes as UTF-8 text, read by the store without
    sending the value."""
    return _Octets(cast(column, Text))


def fitting(
    sizes: Sequence[tuple[Any, int | None]], *, limit: int, max_bytes: int
) -> tuple[list[Any], bool]:
    """The keys of a page bounded by rows and bytes: of ``sizes`` (``(key, bytes)`` in the
    page's order, ``limit + 1`` rows read), the first ones that fit in ``max_bytes``
    together, at most ``limit`` and at least one; and whether more rows follow them (then
    the page ends early, and its cursor resumes right after its last key)."""
    keys: list[Any] = []
    total = 0
    for key, size in sizes[:limit]:
        total += size or 0
        if keys and total > max_bytes:
            break
        keys.append(key)
    return keys, len(keys) < len(sizes)
