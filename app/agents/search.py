"""Relevance ranking over the agent search index (see ``app.agents.search_tables``).

SQLite ranks with FTS5's BM25 (porter stemming); PostgreSQL sums, over the query's words,
IDF times ``ts_rank`` of a weighted ``tsvector`` (English stemming) — ``ts_rank`` alone
knows term frequency and length but not how rare a word is. Words that most agents
contain ("a", "to", "agent") carry almost no weight in BM25 but would make every agent a
match, and ranking every match costs time in proportion: the match uses the rarest words
up to a budget of matches (``MATCH_BUDGET``), and always at least the rarest word.
"""

from __future__ import annotations

import math
import time
import weakref
from typing import Any

from sqlalchemy import Float, cast, func, literal_column, select, text
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from app.agents.models import Agent
from app.agents.search_tables import FTS_TABLE, PG_VECTOR_COLUMN

# relative weights of the fields: name 5, skills (ids, names, descriptions, tags) 3, description 1
SQLITE_BM25_WEIGHTS = (5.0, 1.0, 3.0)  # FTS5 column order: name, description, skills_text
PG_RANK_NORMALIZATION = 1  # ts_rank divides by 1 + log(length), as BM25 damps long text
MATCH_BUDGET = 4_000  # rank at most about this many matches: the rarest words first
PRUNE_FROM_AGENTS = 1_000  # smaller registries match on every word: it costs nothing there
DF_CACHE_SECONDS = 60.0


def _fts() -> ColumnElement[Any]:
    return literal_column(FTS_TABLE)


def _fts_match(words: list[str]) -> str:
    return " OR ".join(f'"{w}"' for w in words)


def _pg_vector() -> ColumnElement[Any]:
    return literal_column(f"agents.{PG_VECTOR_COLUMN}")


def _pg_query(query: str) -> ColumnElement[Any]:
    return func.to_tsquery(literal_column("'english'::regconfig"), query)


class DocumentFrequencies:
    """How many agents each word matches, cached a while (one cache per engine).

    Counts may be a minute old; that moves scores a little and never which agents match.
    """

    def __init__(self, ttl_seconds: float = DF_CACHE_SECONDS, max_words: int = 10_000) -> None:
        self.ttl = ttl_seconds
        self.max_words = max_words
        self._counts: dict[str, tuple[float, int]] = {}

    def _fresh(self, key: str) -> int | None:
        cached = self._counts.get(key)
        if cached is not None and time.monotonic() - cached[0] < self.ttl:
            return cached[1]
        return None

    async def _count(self, session: AsyncSession, key: str, stmt: Any) -> int:
        value = int(await session.scalar(stmt) or 0)
        if len(self._counts) >= self.max_words:
            self._counts.clear()
        self._counts[key] = (time.monotonic(), value)
        return value

    async def total(self, session: AsyncSession) -> int:
        cached = self._fresh("")
        if cached is not None:
            return cached
        stmt = select(func.count()).select_from(Agent).where(col(Agent.deleted_at).is_(None))
        return await self._count(session, "", stmt)

    async def matches(self, session: AsyncSession, word: str, *, sqlite: bool) -> int:
        cached = self._fresh(word)
        if cached is not None:
            return cached
        if sqlite:
            stmt = (
                select(func.count())
                .select_from(text(FTS_TABLE))
                .where(_fts().op("MATCH")(_fts_match([word])))
            )
        else:
            stmt = (
                select(func.count())
                .select_from(Agent)
                .where(_pg_vector().op("@@")(_pg_query(word)))
            )
        return await self._count(session, word, stmt)


_caches: weakref.WeakKeyDictionary[Any, DocumentFrequencies] = weakref.WeakKeyDictionary()


def frequencies_for(session: AsyncSession) -> DocumentFrequencies:
    return _caches.setdefault(session.bind, DocumentFrequencies())


def is_sqlite(session: AsyncSession) -> bool:
    return session.bind is None or session.bind.dialect.name == "sqlite"


def _within_budget(words: list[str], counts: dict[str, int]) -> list[str]:
    """The rarest words whose matches add up to the budget (at least the rarest one).

    The words left out are the commonest, whose IDF, and so whose weight in the score,
    is the smallest; agents matching only them would rank last anyway.
    """
    chosen: set[str] = set()
    spent = 0
    for word in sorted(words, key=counts.__getitem__):
        if chosen and spent + counts[word] > MATCH_BUDGET:
            break
        chosen.add(word)
        spent += counts[word]
    return [w for w in words if w in chosen]


class Ranking:
    """The ranked candidates of one query: a subquery of ``(rid, score)`` and its join key."""

    def __init__(self, session: AsyncSession, words: list[str]) -> None:
        self.session = session
        self.words = words
        self.sqlite = is_sqlite(session)
        self.idf: dict[str, float] = {}

    async def prepare(self) -> bool:
        """Pick the words to match on (and their IDF); False when nothing can match."""
        frequencies = frequencies_for(self.session)
        total = await frequencies.total(self.session)
        counts = {
            w: await frequencies.matches(self.session, w, sqlite=self.sqlite) for w in self.words
        }
        present = [w for w in self.words if counts[w] > 0]
        if not present or not total:
            return False
        self.words = present if total < PRUNE_FROM_AGENTS else _within_budget(present, counts)
        self.idf = {
            w: math.log(1 + (total - counts[w] + 0.5) / (counts[w] + 0.5)) for w in self.words
        }
        return True

    @property
    def key(self) -> ColumnElement[Any]:
        key: ColumnElement[Any] = (
            literal_column("agents.rowid") if self.sqlite else col(Agent.id)  # type: ignore[assignment]
        )
        return key

    def candidates(self, limit: int | None) -> Any:
        """The best ``limit`` matches (all of them with ``None``), as a subquery."""
        if self.sqlite:
            score: ColumnElement[Any] = -func.bm25(_fts(), *SQLITE_BM25_WEIGHTS)
            stmt = (
                select(literal_column(f"{FTS_TABLE}.rowid").label("rid"), score.label("score"))
                .select_from(text(FTS_TABLE))
                .where(_fts().op("MATCH")(_fts_match(self.words)))
            )
        else:
            vector = _pg_vector()
            parts = [
                self.idf[w] * func.ts_rank(vector, _pg_query(w), PG_RANK_NORMALIZATION)
                for w in self.words
            ]
            total: ColumnElement[Any] = parts[0]
            for part in parts[1:]:
                total = total + part
            score = cast(total, Float)
            stmt = select(col(Agent.id).label("rid"), score.label("score")).where(
                vector.op("@@")(_pg_query(" | ".join(self.words)))
            )
        if limit is not None:
            stmt = stmt.order_by(literal_column("score").desc()).limit(limit)
        return stmt.subquery("ranked")
