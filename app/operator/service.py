"""The operator's reads across the hub (the console's lists): every agent, session, group and
task, each page built from the public views the participants' own routes give, plus what the
console shows beside them (certificates, counts). Paged by ``pages.Keyset``; agents by
discovery's own order and ranking (``agents.discovery``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import exists, func, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import MemberState
from agenthub.protocol.operator import (
    CertificateSummary,
    OperatorAgent,
    OperatorAgentPage,
    OperatorGroup,
    OperatorGroupPage,
    OperatorSession,
    OperatorSessionPage,
    OperatorTaskPage,
)
from agenthub.protocol.sessions import SUBMITTED, TaskViewState
from app.agents.discovery import AgentFilters
from app.agents.discovery import list_agents as find_agents
from app.agents.semantic import SemanticReranker
from app.certificates.models import Certificate
from app.certificates.service import newest_certificates
from app.groups.access import group_views
from app.groups.models import Group
from app.models.types import utcnow
from app.pages import PAGE_BYTES, Keyset
from app.sessions.models import Session, SessionParticipant
from app.sessions.service import session_views
from app.tasks.models import Task
from app.tasks.queries import NEWEST_FIRST, task_page

NO_CERTIFICATE = CertificateSummary(state="none")

SESSIONS = Keyset(col(Session.created_at), col(Session.id), kinds=(datetime, str), descending=True)
GROUPS = Keyset(col(Group.created_at), col(Group.id), kinds=(datetime, str), descending=True)


def certificate_summary(row: Certificate | None, now: datetime) -> CertificateSummary:
    if row is None:
        return NO_CERTIFICATE
    if row.revoked_at is not None:
        state = "revoked"
    elif row.not_after <= now:
        state = "expired"
    else:
        state = "valid"
    return CertificateSummary.model_validate(
        {
            "state": state,
            "serial": row.serial,
            "notAfter": row.not_after,
            "revokedAt": row.revoked_at,
        }
    )


async def list_agents(
    db: AsyncSession,
    *,
    filters: AgentFilters,
    limit: int,
    cursor: str | None,
    reranker: SemanticReranker | None,
) -> OperatorAgentPage:
    """Discovery as the operator sees it (every registered agent), each card with its newest
    certificate's state."""
    page = await find_agents(
        db, caller_id=None, filters=filters, limit=limit, cursor=cursor, reranker=reranker
    )
    certificates = await newest_certificates(db, [card.id for card in page.items])
    now = utcnow()
    items = [
        OperatorAgent.model_validate(
            {
                **card.model_dump(),
                "certificate": certificate_summary(certificates.get(card.id), now),
            }
        )
        for card in page.items
    ]
    return OperatorAgentPage(items=items, next_cursor=page.next_cursor)


async def _counts(db: AsyncSession, column: Any, ids: list[str]) -> dict[str, int]:
    """Rows per value of ``column`` among ``ids``, in one query."""
    if not ids:
        return {}
    rows = await db.exec(select(column, func.count()).where(column.in_(ids)).group_by(column))
    return {key: int(n) for key, n in rows.all()}


async def list_sessions(
    db: AsyncSession,
    *,
    state: str | None,
    agent_id: str | None,
    limit: int,
    cursor: str | None,
) -> OperatorSessionPage:
    """Every session, newest first, with how many tasks and groups each has."""
    stmt = select(Session)
    if state:
        stmt = stmt.where(col(Session.state) == state)
    if agent_id:
        stmt = stmt.where(
            exists().where(
                col(SessionParticipant.session_id) == col(Session.id),
                col(SessionParticipant.agent_id) == agent_id,
            )
        )
    page, next_cursor = await SESSIONS.page(
        db, stmt, cursor=cursor, limit=limit, values=lambda s: (s.created_at, s.id)
    )
    ids = [s.id for s in page]
    tasks = await _counts(db, col(Task.session_id), ids)
    groups = await _counts(db, col(Group.session_id), ids)
    items = [
        OperatorSession.model_validate(
            {
                **view.model_dump(),
                "taskCount": tasks.get(view.id, 0),
                "groupCount": groups.get(view.id, 0),
            }
        )
        for view in await session_views(db, page)
    ]
    return OperatorSessionPage(items=items, next_cursor=next_cursor)


async def list_groups(
    db: AsyncSession,
    *,
    session_id: str | None,
    parent_group_id: str | None,
    depth: int | None,
    limit: int,
    cursor: str | None,
) -> OperatorGroupPage:
    """Every group, newest first, with how many active members each has."""
    stmt = select(Group)
    if session_id:
        stmt = stmt.where(col(Group.session_id) == session_id)
    if parent_group_id:
        stmt = stmt.where(col(Group.parent_group_id) == parent_group_id)
    if depth is not None:
        stmt = stmt.where(col(Group.depth) == depth)
    page, next_cursor = await GROUPS.page(
        db, stmt, cursor=cursor, limit=limit, values=lambda g: (g.created_at, g.id)
    )
    items = [
        OperatorGroup.model_validate(
            {
                **view.model_dump(),
                "memberCount": sum(1 for m in members if m.state == MemberState.ACTIVE),
            }
        )
        for view, members in await group_views(db, page)
    ]
    return OperatorGroupPage(items=items, next_cursor=next_cursor)


async def list_tasks(
    db: AsyncSession,
    *,
    session_id: str | None,
    group_id: str | None,
    state: TaskViewState | None,
    agent_id: str | None,
    limit: int,
    cursor: str | None,
    max_bytes: int = PAGE_BYTES,
) -> OperatorTaskPage:
    """Every task, newest first; ``agent_id``: those it leads or is the partner of."""
    stmt = select(Task)
    if session_id:
        stmt = stmt.where(col(Task.session_id) == session_id)
    if group_id:
        stmt = stmt.where(col(Task.group_id) == group_id)
    if state == SUBMITTED:
        stmt = stmt.where(col(Task.state).is_(None))
    elif state:
        stmt = stmt.where(col(Task.state) == state)
    if agent_id:
        stmt = stmt.where(or_(col(Task.leader_id) == agent_id, col(Task.partner_id) == agent_id))
    # newest first: the console shows what happens now at the top
    items, next_cursor = await task_page(
        db, stmt, order=NEWEST_FIRST, cursor=cursor, limit=limit, max_bytes=max_bytes
    )
    return OperatorTaskPage(items=items, next_cursor=next_cursor)
