"""Group commit for plain group messages: one writer per process batches concurrent posts.

A plain message (no task, no mentions) from an active, unmuted member needs only the
group's next seq and one row. Written one transaction each, with the caller and the
group read through the ORM first, each post costs about ten statements and concurrent
posts queue on the store's write lock. The writer instead takes every post waiting, in
arrival order, and handles them in one transaction:

1. one SELECT of the senders (still registered, token still bound to their key) and one of
   their memberships (active, unmuted; group not concluded; session open);
2. per group, ``UPDATE … SET last_seq = last_seq + k RETURNING last_seq``;
3. one multi-row INSERT of the messages, and the senders' last-seen times;
4. one COMMIT. Each post's 201 waits for the commit that holds it, and the broker gets
   the frames only after it, in seq order.

A post that fails any check is handed back (``None``) to go the ordinary path, which
gives the precise refusal; so is every post of a batch that hit a duplicate message id,
which the ordinary path replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel import col

from agenthub.protocol.groups import ConversationState, MemberState
from agenthub.protocol.messages import Message
from app.broker import Broker, Delivery
from app.models import Agent, Group, GroupMember, Session, StoredMessage
from app.models.types import utcnow
from app.services.agents import LAST_SEEN_WRITE_INTERVAL_SECONDS
from app.services.events import group_channel, message_delivery
from app.services.groups import MANAGERS
from app.services.messages import Placement, encodable, stored_body, stored_row
from app.services.tasks import AnyTaskMessage

logger = logging.getLogger(__name__)

MAX_BATCH = 256


@dataclass
class PlainPost:
    group_id: str
    sender_id: str
    key_thumbprint: str | None  # the access token's cnf.jkt
    message: Message
    received_at: datetime = field(default_factory=utcnow)
    body: dict[str, Any] = field(default_factory=dict)  # as stored, once written
    done: asyncio.Future[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    @classmethod
    def of(
        cls, message: AnyTaskMessage, *, group_id: str, sender_id: str, key_thumbprint: str | None
    ) -> PlainPost | None:
        """The post, if the message is plain and its own fields fit this group and sender."""
        if not isinstance(message, Message) or message.task_id is not None or message.mentions:
            return None
        if message.sender_id != sender_id or message.group_id not in (None, group_id):
            return None
        return cls(group_id, sender_id, key_thumbprint, message)


class MessageWriter:
    """Writes queued plain posts in batches, one transaction each, from one task."""

    def __init__(self, engine: AsyncEngine, broker: Broker, *, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self.broker = broker
        self.max_batch = max_batch
        self._queue: list[PlainPost] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.written = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="message-writer")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for post in self._queue:  # nothing was written for these: they go the ordinary path
            if not post.done.done():
                post.done.set_result(None)
        self._queue.clear()

    async def write(self, post: PlainPost) -> dict[str, Any] | None:
        """The stored body once committed; ``None``: post it the ordinary way instead.
        A post that cannot be stored is refused here, alone, before it joins a batch."""
        encodable(post.message.to_wire())
        if self._task is None or self._task.done():
            return None
        self._queue.append(post)
        self._wake.set()
        return await asyncio.shield(post.done)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
                await self._write(batch)

    async def _write(self, batch: list[PlainPost]) -> None:
        try:
            written = await self._commit(batch)
        except IntegrityError:  # a duplicate id in the batch: each goes the ordinary way
            written = []
        except Exception as exc:  # the store failed: every post in it fails the same way
            logger.warning("a batch of %d group messages failed: %s", len(batch), exc)
            for post in batch:
                if not post.done.done():
                    post.done.set_exception(exc)
            return
        self.batches += 1
        self.written += len(written)
        for post, delivery in written:
            self.broker.publish(group_channel(post.group_id), delivery)
        stored = {id(post) for post, _ in written}
        for post in batch:
            if not post.done.done():
                post.done.set_result(post.body if id(post) in stored else None)

    async def _commit(self, batch: list[PlainPost]) -> list[tuple[PlainPost, Delivery]]:
        async with self.engine.begin() as conn:
            admitted = await _admitted(conn, batch)
            by_group: dict[str, list[PlainPost]] = defaultdict(list)
            for post in batch:
                if id(post) in admitted:
                    by_group[post.group_id].append(post)
            written, rows = [], []
            for group_id, posts in by_group.items():
                params = {"group_id": group_id, "count": len(posts)}
                last = (await conn.execute(_NEXT_SEQS, params)).scalar_one()
                for seq, post in enumerate(posts, start=int(last) - len(posts) + 1):
                    at = Placement(
                        admitted[id(post)], post.received_at, group_id=post.group_id, seq=seq
                    )
                    post.body = stored_body(post.message, at)
                    rows.append(stored_row(post.message, post.body, at))
                    written.append((post, message_delivery(seq, post.sender_id, post.body)))
            if rows:
                await conn.execute(insert(StoredMessage), rows)
                await _mark_seen(conn, {post.sender_id for post, _ in written})
        return written


_SENDERS = select(col(Agent.id), col(Agent.key_thumbprint)).where(
    col(Agent.id).in_(bindparam("senders", expanding=True)), col(Agent.deleted_at).is_(None)
)
_OPEN_MEMBERSHIPS = (
    select(col(Group.id), col(GroupMember.agent_id), col(Group.session_id), col(GroupMember.role))
    .join(GroupMember, col(GroupMember.group_id) == col(Group.id))
    .join(Session, col(Session.id) == col(Group.session_id))
    .where(
        col(Group.id).in_(bindparam("groups", expanding=True)),
        col(GroupMember.agent_id).in_(bindparam("senders", expanding=True)),
        col(GroupMember.state) == MemberState.ACTIVE.value,
        col(GroupMember.muted).is_(False),
        col(Group.conversation_state) != ConversationState.CONCLUSION.value,
        col(Session.state) != "closed",
    )
)
_NEXT_SEQS = (
    update(Group)
    .where(col(Group.id) == bindparam("group_id"))
    .values(last_seq=col(Group.last_seq) + bindparam("count"))
    .returning(col(Group.last_seq))
)
_SEEN = (
    update(Agent)
    .where(
        col(Agent.id).in_(bindparam("agents", expanding=True)),
        or_(col(Agent.last_seen_at).is_(None), col(Agent.last_seen_at) < bindparam("stale")),
    )
    .values(last_seen_at=bindparam("now"))
)
"""Built once: building a statement costs more than running it on SQLite."""


async def _admitted(conn: AsyncConnection, batch: list[PlainPost]) -> dict[int, str]:
    """The posts that pass every check, each with its group's session id."""
    senders = list({post.sender_id for post in batch})
    groups = list({post.group_id for post in batch})
    agents: dict[str, str] = {
        agent_id: thumbprint
        for agent_id, thumbprint in await conn.execute(_SENDERS, {"senders": senders})
    }
    rows = await conn.execute(_OPEN_MEMBERSHIPS, {"groups": groups, "senders": senders})
    open_memberships: dict[tuple[str, str], tuple[str, str]] = {
        (group_id, agent_id): (session_id, role) for group_id, agent_id, session_id, role in rows
    }
    admitted = {}
    for post in batch:
        session_id, role = open_memberships.get((post.group_id, post.sender_id), (None, ""))
        leads = getattr(post.message.sender_role, "value", post.message.sender_role) == "leader"
        if (
            session_id is not None
            and (role in MANAGERS or not leads)  # see messages.check_sender_role
            and post.key_thumbprint is not None
            and agents.get(post.sender_id) == post.key_thumbprint
            and post.message.session_id in (None, session_id)
        ):
            admitted[id(post)] = session_id
    return admitted


async def _mark_seen(conn: AsyncConnection, agent_ids: set[str]) -> None:
    now = utcnow()
    stale = now - timedelta(seconds=LAST_SEEN_WRITE_INTERVAL_SECONDS)
    await conn.execute(_SEEN, {"agents": list(agent_ids), "stale": stale, "now": now})
