"""The baseline: a plain LIKE filter over the agents' text, scored by how many words match
(the hub's interim search before ranked discovery)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, case, cast, func, select
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from app.agents.models import Agent

MAX_TERMS = 10
NAME_WEIGHT = 2.0


def _pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


async def like_search(session: AsyncSession, q: str, limit: int = 10) -> list[tuple[str, float]]:
    terms = list(dict.fromkeys(q.lower().split()))[:MAX_TERMS]
    parts: list[Any] = []
    for term in terms:
        pattern = _pattern(term)
        parts.append(
            case((func.lower(col(Agent.name)).like(pattern, escape="\\"), NAME_WEIGHT), else_=0.0)
        )
        parts.append(case((col(Agent.search_text).like(pattern, escape="\\"), 1.0), else_=0.0))
    score: Any = parts[0]
    for part in parts[1:]:
        score = score + part
    score = cast(score, Float).label("score")
    stmt = (
        select(col(Agent.id), score)
        .where(col(Agent.deleted_at).is_(None), score > 0)
        .order_by(score.desc(), col(Agent.id))
        .limit(limit)
    )
    rows = await session.exec(stmt)  # type: ignore[call-overload]
    return [(str(r[0]), float(r[1])) for r in rows.all()]
