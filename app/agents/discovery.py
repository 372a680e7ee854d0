"""Listing and finding agents: filters, relevance ranking of ``q``, cursor pages.

``q`` is cut into words (letters and digits; everything else, operators and quotes included,
only separates words) and any word may match. SQLite ranks with FTS5's BM25 over name,
description and skills (porter stemming); PostgreSQL with ``ts_rank`` over a weighted
``tsvector`` (English stemming). ``score`` is higher for better matches; pages are keyed on
``(score, id)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Float, and_, exists, literal, or_, select
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.agents import AgentPage
from app.agents.last_seen import ONLINE_WINDOW_SECONDS
from app.agents.models import Agent, AgentLabel
from app.agents.search import Ranking
from app.agents.semantic import SemanticReranker
from app.agents.service import to_card
from app.errors import BadCursor
from app.models.types import utcnow
from app.pages import decode_cursor, encode_cursor

MAX_QUERY_TERMS = 16
MAX_TERM_CHARS = 50
SEMANTIC_CANDIDATES = 50  # semantic re-ranking orders the best this many lexical matches
FIRST_PAGE_CANDIDATES = 20  # times the page size: rank that many, then filter
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class AgentFilters:
    q: str | None = None
    skill: str | None = None
    tag: str | None = None
    status: str | None = None
    provider: str | None = None
    protocol: str | None = None  # one the agent's card shows (declared, or its implicit AIP)
    include_self: bool = False


def query_words(q: str) -> list[str]:
    """The words of ``q``: letters and digits only, so no search operator survives."""
    words = [w[:MAX_TERM_CHARS] for w in _WORD.findall(q.lower())]
    return list(dict.fromkeys(words))[:MAX_QUERY_TERMS]


def _label_filter(kind: str, value: str) -> ColumnElement[bool]:
    return exists().where(
        col(AgentLabel.agent_id) == col(Agent.id),
        col(AgentLabel.kind) == kind,
        col(AgentLabel.value) == value,
    )


async def list_agents(
    session: AsyncSession,
    *,
    caller_id: str | None,
    filters: AgentFilters,
    limit: int,
    cursor: str | None,
    reranker: SemanticReranker | None = None,
) -> AgentPage:
    conditions: list[ColumnElement[bool]] = [col(Agent.deleted_at).is_(None)]
    if caller_id is not None and not filters.include_self:  # None: the operator, no self
        conditions.append(col(Agent.id) != caller_id)
    if filters.skill:
        conditions.append(_label_filter("skill", filters.skill))
    if filters.tag:
        conditions.append(_label_filter("tag", filters.tag))
    if filters.protocol:
        conditions.append(_label_filter("protocol", filters.protocol))
    if filters.provider:
        conditions.append(col(Agent.provider) == filters.provider)
    now = utcnow()
    if filters.status:
        since = now - timedelta(seconds=ONLINE_WINDOW_SECONDS)
        seen = col(Agent.last_seen_at)
        online = and_(seen.is_not(None), seen >= since)
        conditions.append(online if filters.status == "online" else ~online)
    searched = bool(filters.q and filters.q.strip())
    words = query_words(filters.q) if searched and filters.q else []
    if searched and not words:
        return AgentPage(items=[], next_cursor=None)
    if words:
        ranking = Ranking(session, words)
        if not await ranking.prepare():
            return AgentPage(items=[], next_cursor=None)
        if reranker is not None and filters.q:
            return await _reranked_page(
                session, ranking, conditions, filters.q, reranker, cursor, limit, now
            )
        # the first page ranks a bounded set of candidates, unless filters thin it out
        bound = None if cursor else FIRST_PAGE_CANDIDATES * (limit + 1)
        rows = await _ranked_rows(session, ranking, conditions, cursor, limit, bound)
        if bound is not None and len(rows) <= limit:
            rows = await _ranked_rows(session, ranking, conditions, cursor, limit, None)
        return _page(rows, limit, now, ranked=True)
    stmt = select(Agent, literal(None, type_=Float)).where(*conditions)
    if cursor:
        (last_id,) = decode_cursor(cursor, types=(str,))
        stmt = stmt.where(col(Agent.id) > last_id)
    stmt = stmt.order_by(col(Agent.id))
    rows = (await session.exec(stmt.limit(limit + 1))).all()  # type: ignore[call-overload]
    return _page(list(rows), limit, now, ranked=False)


async def _ranked_rows(
    session: AsyncSession,
    ranking: Ranking,
    conditions: list[ColumnElement[bool]],
    cursor: str | None,
    limit: int,
    bound: int | None,
) -> list[Any]:
    ranked = ranking.candidates(bound)
    score: ColumnElement[Any] = ranked.c.score
    stmt = select(Agent, score).join(ranked, ranked.c.rid == ranking.key).where(*conditions)
    if cursor:
        last_score, last_id = decode_cursor(cursor, types=(int | float, str))
        stmt = stmt.where(
            or_(score < last_score, and_(score == last_score, col(Agent.id) > last_id))
        )
    stmt = stmt.order_by(score.desc(), col(Agent.id)).limit(limit + 1)
    return list((await session.exec(stmt)).all())  # type: ignore[call-overload]


async def _reranked_page(
    session: AsyncSession,
    ranking: Ranking,
    conditions: list[ColumnElement[bool]],
    q: str,
    reranker: SemanticReranker,
    cursor: str | None,
    limit: int,
    now: Any,
) -> AgentPage:
    """Pages over the best lexical candidates in their semantic order (cursor: an offset)."""
    offset = 0
    if cursor:
        tag, offset = decode_cursor(cursor, types=(str, int))
        if tag != "semantic" or offset < 0:
            raise BadCursor("The cursor is not one of this search's.")
    candidates = await _ranked_rows(
        session, ranking, conditions, None, SEMANTIC_CANDIDATES - 1, None
    )
    ordered = await reranker.rerank(q, [(row[0], float(row[1])) for row in candidates])
    page = ordered[offset : offset + limit]
    more = offset + limit < len(ordered)
    return AgentPage(
        items=[to_card(agent, score=score, now=now) for agent, score in page],
        next_cursor=encode_cursor(["semantic", offset + limit]) if more else None,
    )


def _page(rows: list[Any], limit: int, now: Any, *, ranked: bool) -> AgentPage:
    page = rows[:limit]
    items = [to_card(row[0], score=row[1], now=now) for row in page]
    next_cursor = None
    if len(rows) > limit and page:
        last = page[-1]
        next_cursor = encode_cursor([last[1], last[0].id] if ranked else [last[0].id])
    return AgentPage(items=items, next_cursor=next_cursor)
