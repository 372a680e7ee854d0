"""Group messages read: a page of a group's messages, by seq (the posts are the record
engine's to write, ``records.group_posts``)."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import GroupMessagePage
from agenthub.protocol.messages import parse_message
from app.auth.principal import Principal
from app.core.models import StoredMessage
from app.groups.access import active_group, load_group
from app.pages import PAGE_BYTES, fitting, stored_size


async def list_group_messages(
    db: AsyncSession,
    *,
    principal: Principal,
    group_id: str,
    after: int,
    limit: int,
    max_bytes: int = PAGE_BYTES,
) -> GroupMessagePage:
    """The group's messages, to its active members (and those its conclusion released) and
    to the operator, who reads every group; at most ``limit`` and about ``max_bytes``."""
    if principal.is_operator:
        await load_group(db, group_id)
    else:
        await active_group(db, group_id, principal)
    seqs, more = await group_page_seqs(db, group_id, after=after, limit=limit, max_bytes=max_bytes)
    bodies = await group_bodies(db, group_id, seqs)
    return GroupMessagePage.model_validate(
        {
            "items": [parse_message(body) for _, body in bodies],
            "nextCursor": str(seqs[-1]) if more else None,
        }
    )


async def group_page_seqs(
    db: AsyncSession, group_id: str, *, after: int, limit: int, max_bytes: int
) -> tuple[list[int], bool]:
    """The seqs of a page of the group's messages after ``after`` (at most ``limit``, about
    ``max_bytes``: ``app.pages.fitting``), and whether more follow."""
    sizes = await db.exec(
        select(StoredMessage.seq, stored_size(StoredMessage.body))
        .where(col(StoredMessage.group_id) == group_id, col(StoredMessage.seq) > after)
        .order_by(col(StoredMessage.seq))
        .limit(limit + 1)
    )
    return fitting(list(sizes.all()), limit=limit, max_bytes=max_bytes)


async def group_bodies(
    db: AsyncSession, group_id: str, seqs: list[int]
) -> list[tuple[int, dict[str, Any]]]:
    """The stored bodies of the group's messages ``seqs``, by seq."""
    if not seqs:
        return []
    rows = await db.exec(
        select(StoredMessage.seq, StoredMessage.body)
        .where(col(StoredMessage.group_id) == group_id, col(StoredMessage.seq).in_(seqs))
        .order_by(col(StoredMessage.seq))
    )
    return [(int(seq or 0), dict(body)) for seq, body in rows.all()]
