"""Listing and finding agents: filters, relevance ranking of ``q``, cursor pages.

``q`` is cut into words (letters and digits; everything else, operators and quotes included,
only separates words) and any word may match. SQLite ranks with FTS5's BM25 over name,
description and skills (porter stemming); PostgreSQL with ``ts_rank`` over a weighted
``tsvector`` (English stemming). ``score`` is higher for better matches; pages are keyed on
``(score, id)``.
"""

from __future__ import annotations

import math
import re
import time
import weakref
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Float, and_, cast, exists, func, literal, literal_column, or_, select, text
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from app.models import Agent, AgentLabel
from app.models.search import FTS_TABLE, PG_VECTOR_COLUMN
from app.models.types import utcnow
from app.protocol.agents import AgentPage
from app.services.agents import ONLINE_WINDOW_SECONDS, to_card
from app.services.pages import decode_cursor, encode_cursor

MAX_QUERY_TERMS = 16
MAX_TERM_CHARS = 50
# relative weights of the indexed fields: name, skills (ids, names, descriptions, tags), description
SQLITE_BM25_WEIGHTS = (5.0, 1.0, 3.0)  # in FTS5 column order: name, description, skills_text
PG_RANK_NORMALIZATION = 1
DF_CACHE_SECONDS = 60.0  # ts_rank divides by 1 + log(document length), as BM25 damps long text
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class AgentFilters:
    q: str | None = None
    skill: str | None = None
    tag: str | None = None
    status: str | None = None
    provider: str | None = None
    include_self: bool = False


def query_words(q: str) -> list[str]:
    """The words of ``q``: letters and digits only, so no search operator survives."""
    words = [w[:MAX_TERM_CHARS] for w in _WORD.findall(q.lower())]
    return list(dict.fromkeys(words))[:MAX_QUERY_TERMS]


def _ranked_sqlite(words: list[str]) -> Any:
    """(rowid, score) of the agents whose index matches any word, by FTS5's BM25."""
    match = " OR ".join(f'"{w}"' for w in words)
    fts: ColumnElement[Any] = literal_column(FTS_TABLE)
    score = -func.bm25(fts, *SQLITE_BM25_WEIGHTS)
    return (
        select(literal_column(f"{FTS_TABLE}.rowid").label("rid"), score.label("score"))
        .select_from(text(FTS_TABLE))
        .where(fts.op("MATCH")(match))
        .subquery("ranked")
    )


class DocumentFrequencies:
    """How many agents each word matches, for BM25's IDF on PostgreSQL (cached a while).

    PostgreSQL's ``ts_rank`` knows term frequency and document length but not how rare a
    word is; weighting each word's rank by its IDF makes the ranking comparable to BM25.
    Counts may be a minute old, which moves scores a little and never which agents match.
    """

    def __init__(self, ttl_seconds: float = DF_CACHE_SECONDS, max_words: int = 10_000) -> None:
        self.ttl = ttl_seconds
        self.max_words = max_words
        self._counts: dict[str, tuple[float, int]] = {}

    async def _count(self, session: AsyncSession, key: str, condition: Any) -> int:
        now = time.monotonic()
        cached = self._counts.get(key)
        if cached is not None and now - cached[0] < self.ttl:
            return cached[1]
        stmt = select(func.count()).select_from(Agent).where(col(Agent.deleted_at).is_(None))
        if condition is not None:
            stmt = stmt.where(condition)
        value = int(await session.scalar(stmt) or 0)
        if len(self._counts) >= self.max_words:
            self._counts.clear()
        self._counts[key] = (now, value)
        return value

    async def idf(self, session: AsyncSession, words: list[str]) -> dict[str, float]:
        total = await self._count(session, "", None)
        weights = {}
        for word in words:
            matches = await self._count(session, word, _pg_vector().op("@@")(_pg_query(word)))
            weights[word] = math.log(1 + (total - matches + 0.5) / (matches + 0.5))
        return weights


_frequencies: weakref.WeakKeyDictionary[Any, DocumentFrequencies] = weakref.WeakKeyDictionary()


def frequencies_for(session: AsyncSession) -> DocumentFrequencies:
    """One cache per engine (that is, per hub and database)."""
    return _frequencies.setdefault(session.bind, DocumentFrequencies())


def _pg_vector() -> ColumnElement[Any]:
    return literal_column(f"agents.{PG_VECTOR_COLUMN}")


def _pg_query(text_query: str) -> ColumnElement[Any]:
    return func.to_tsquery(literal_column("'english'::regconfig"), text_query)


async def _ranked_postgres(session: AsyncSession, words: list[str]) -> Any:
    """(id, score) of the agents whose weighted tsvector matches any word: the sum over the
    words of IDF times ``ts_rank`` (length-normalized)."""
    idf = await frequencies_for(session).idf(session, words)
    vector = _pg_vector()
    parts = [idf[w] * func.ts_rank(vector, _pg_query(w), PG_RANK_NORMALIZATION) for w in words]
    score: ColumnElement[Any] = parts[0]
    for part in parts[1:]:
        score = score + part
    return (
        select(col(Agent.id).label("rid"), cast(score, Float).label("score"))
        .where(vector.op("@@")(_pg_query(" | ".join(words))))
        .subquery("ranked")
    )


def _label_filter(kind: str, value: str) -> ColumnElement[bool]:
    return exists().where(
        col(AgentLabel.agent_id) == col(Agent.id),
        col(AgentLabel.kind) == kind,
        col(AgentLabel.value) == value,
    )


async def list_agents(
    session: AsyncSession, *, caller_id: str, filters: AgentFilters, limit: int, cursor: str | None
) -> AgentPage:
    conditions: list[ColumnElement[bool]] = [col(Agent.deleted_at).is_(None)]
    if not filters.include_self:
        conditions.append(col(Agent.id) != caller_id)
    if filters.skill:
        conditions.append(_label_filter("skill", filters.skill))
    if filters.tag:
        conditions.append(_label_filter("tag", filters.tag))
    if filters.provider:
        conditions.append(col(Agent.provider) == filters.provider)
    now = utcnow()
    if filters.status:
        since = now - timedelta(seconds=ONLINE_WINDOW_SECONDS)
        seen = col(Agent.last_seen_at)
        online = and_(seen.is_not(None), seen >= since)
        conditions.append(online if filters.status == "online" else ~online)
    searched = bool(filters.q and filters.q.strip())
    words = query_words(filters.q) if filters.q and searched else []
    if searched and not words:
        return AgentPage(items=[], next_cursor=None)
    if words:
        sqlite = session.bind.dialect.name == "sqlite" if session.bind else True
        ranked = _ranked_sqlite(words) if sqlite else await _ranked_postgres(session, words)
        key = literal_column("agents.rowid") if sqlite else col(Agent.id)
        score: ColumnElement[Any] = ranked.c.score
        stmt = select(Agent, score).join(ranked, ranked.c.rid == key).where(*conditions)
        if cursor:
            last_score, last_id = decode_cursor(cursor, types=(int | float, str))
            stmt = stmt.where(
                or_(score < last_score, and_(score == last_score, col(Agent.id) > last_id))
            )
        stmt = stmt.order_by(score.desc(), col(Agent.id))
    else:
        stmt = select(Agent, literal(None, type_=Float)).where(*conditions)
        if cursor:
            (last_id,) = decode_cursor(cursor, types=(str,))
            stmt = stmt.where(col(Agent.id) > last_id)
        stmt = stmt.order_by(col(Agent.id))
    rows = (await session.exec(stmt.limit(limit + 1))).all()  # type: ignore[call-overload]
    page = rows[:limit]
    items = [to_card(row[0], score=row[1], now=now) for row in page]
    next_cursor = None
    if len(rows) > limit and page:
        last = page[-1]
        next_cursor = encode_cursor([last[1], last[0].id] if words else [last[0].id])
    return AgentPage(items=items, next_cursor=next_cursor)
