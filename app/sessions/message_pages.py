"""A page of stored messages, in the order they were stored, with the caller a bridge
session carries: a session's messages (``records.messages``) and a task's
(``tasks.queries``)."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from agenthub.protocol.messages import parse_message
from agenthub.protocol.sessions import MessagePage
from app.core.models import StoredMessage
from app.pages import PAGE_BYTES, decode_cursor, encode_cursor, fitting, stored_size
from app.sessions.callers import session_callers


async def message_page(
    db: AsyncSession,
    stmt: SelectOfScalar[StoredMessage],
    *,
    after: str | None,
    limit: int,
    max_bytes: int = PAGE_BYTES,
    session_id: str | None = None,
) -> MessagePage:
    """One page of the stored messages ``stmt`` selects, in the order they were stored: at
    most ``limit``, and about ``max_bytes`` (``app.pages.fitting``: a shorter page, with a
    ``nextCursor``, when the messages are large); of one session (``session_id``), with the
    caller it bridges, if it is a bridge."""
    if after:
        (last_pk,) = decode_cursor(after, types=(int,))
        stmt = stmt.where(col(StoredMessage.pk) > last_pk)
    pk = col(StoredMessage.pk)
    sizes = select(pk, stored_size(StoredMessage.body))
    if stmt.whereclause is not None:
        sizes = sizes.where(stmt.whereclause)
    found = list((await db.exec(sizes.order_by(pk).limit(limit + 1))).all())
    pks, more = fitting(found, limit=limit, max_bytes=max_bytes)
    page = list((await db.exec(stmt.where(pk.in_(pks)).order_by(pk))).all()) if pks else []
    next_cursor = encode_cursor([pks[-1]]) if more else None
    caller = None
    if session_id is not None:
        caller = (await session_callers(db, [session_id])).get(session_id)
    return MessagePage.model_validate(
        {
            "items": [parse_message(r.body) for r in page],
            "nextCursor": next_cursor,
            "caller": caller,
        }
    )
