"""Listing and finding agents: filters, a simple relevance score for ``q``, cursor pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Float, and_, case, cast, exists, func, literal, or_, select
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from app.models import Agent, AgentLabel
from app.models.types import utcnow
from app.protocol.agents import AgentPage
from app.services.agents import ONLINE_WINDOW_SECONDS, to_card
from app.services.pages import decode_cursor, encode_cursor

MAX_QUERY_TERMS = 10
MAX_TERM_CHARS = 50
NAME_WEIGHT = 2.0


@dataclass(frozen=True)
class AgentFilters:
    q: str | None = None
    skill: str | None = None
    tag: str | None = None
    status: str | None = None
    provider: str | None = None
    include_self: bool = False


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _terms(q: str) -> list[str]:
    terms = [t[:MAX_TERM_CHARS] for t in q.lower().split() if t]
    return list(dict.fromkeys(terms))[:MAX_QUERY_TERMS]


def _score(terms: list[str]) -> ColumnElement[float]:
    parts: list[ColumnElement[Any]] = []
    for term in terms:
        pattern = _like_pattern(term)
        parts.append(
            case((func.lower(col(Agent.name)).like(pattern, escape="\\"), NAME_WEIGHT), else_=0.0)
        )
        parts.append(case((col(Agent.search_text).like(pattern, escape="\\"), 1.0), else_=0.0))
    total: ColumnElement[Any] = parts[0]
    for part in parts[1:]:
        total = total + part
    return cast(total, Float)


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
    terms = _terms(filters.q) if filters.q else []
    score: ColumnElement[float] = _score(terms) if terms else literal(None, type_=Float)
    if terms:
        conditions.append(score > 0)
    stmt = select(Agent, score.label("score")).where(*conditions)
    if terms:
        if cursor:
            last_score, last_id = decode_cursor(cursor, types=(int | float, str))
            conditions_after = or_(
                score < last_score, and_(score == last_score, col(Agent.id) > last_id)
            )
            stmt = stmt.where(conditions_after)
        stmt = stmt.order_by(score.desc(), Agent.id)
    else:
        if cursor:
            (last_id,) = decode_cursor(cursor, types=(str,))
            stmt = stmt.where(col(Agent.id) > last_id)
        stmt = stmt.order_by(Agent.id)
    rows = (await session.exec(stmt.limit(limit + 1))).all()  # type: ignore[call-overload]
    page = rows[:limit]
    items = [to_card(row[0], score=row[1], now=now) for row in page]
    next_cursor = None
    if len(rows) > limit and page:
        last = page[-1]
        next_cursor = encode_cursor([last[1], last[0].id] if terms else [last[0].id])
    return AgentPage(items=items, next_cursor=next_cursor)
