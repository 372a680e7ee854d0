"""A record the writer takes (``Record``), the path it goes down (``Path``), and the
standing of a batch's senders (``Standing``), read in one SELECT each for the whole batch:
steps 1 and 2 of ``app.records.ingest``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import bindparam, literal_column, select, union_all
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

import agenthub.tracing as tracing
from agenthub.protocol.messages import Message
from agenthub.protocol.sessions import RelayedAnswer
from agenthub.protocol.tokens import AccessTokenClaims
from app.agents.models import Agent
from app.auth.principal import check_token_key
from app.core.models import StoredMessage
from app.errors import HubError
from app.groups.flow import FloorState
from app.groups.models import Group, GroupMember
from app.models.types import utcnow
from app.prepared import Prepared, rows
from app.records import group_posts as group_messages
from app.records import messages
from app.records.answers import write_answer
from app.records.group_posts import Membership, write_group_message
from app.records.messages import (
    Participation,
    write_session_message,
)
from app.sessions.errors import SessionNotFound
from app.sessions.models import Session, SessionParticipant
from app.tasks.service import AnyTaskMessage

Outcome = tuple[dict[str, Any], int]  # the stored body and its status (200, 201 or 202)


class Path(Enum):
    PLAIN = "plain"  # one row; written in bulk
    FULL = "full"  # the kind's own service, in a savepoint


@dataclass(eq=False)
class Record:
    """One message to record, as its route received it, with the caller's token facts."""

    sender_id: str  # the access token's subject
    key_thumbprint: str | None  # and its cnf.jkt
    message: AnyTaskMessage | None  # None for a relayed answer: it is in ``answer``
    group_id: str | None = None  # a post to this group
    session_id: str | None = None  # a point-to-point record in this session
    answer: RelayedAnswer | None = None  # a partner's answer the caller relays
    received_at: datetime = field(default_factory=utcnow)
    outcome: Outcome | None = None
    error: BaseException | None = None
    membership: Membership | None = None  # a group post's standing, once found active
    place: Participation | None = None  # a point-to-point record's, once found
    row: dict[str, Any] | None = None  # its row, once ``task_batch`` decided it in memory
    told: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # and its operator events
    wire: dict[str, Any] | None = None  # the message's wire object, as received (``many``)
    trace: str | None = None  # the traceparent of the span that recorded it, when tracing

    @classmethod
    def of(cls, claims: AccessTokenClaims, message: AnyTaskMessage | None, **place: Any) -> Record:
        """The record of ``message`` from the token's agent, at ``place`` (``group_id`` or
        ``session_id``, and a relayed ``answer``)."""
        trace = tracing.current_traceparent()
        return cls(claims.sub, claims.cnf.get("jkt"), message, **place, trace=trace)

    def verdict(self, standing: Standing) -> HubError | Path:
        """Why the record is refused, or the path it takes: the route's documented checks,
        in the order the full path makes them, from the batch's standing alone (the checks
        are the services' own: ``check_token_key``, ``check_post``, ``check_open``)."""
        try:
            check_token_key(self.key_thumbprint, standing.keys.get(self.sender_id))
            if self.group_id is not None:
                return self._group_path(standing)
            return self._session_path(standing)
        except HubError as refused:
            return refused

    def _group_path(self, standing: Standing) -> Path:
        at = standing.memberships.get((self.group_id or "", self.sender_id))
        message = self.message
        assert message is not None and self.group_id is not None
        if at is None or not at.active:
            return Path.FULL  # the full path tells a group one may not see (404) from 403
        group_messages.check_post(message, self.sender_id, self.group_id, at)
        self.membership = at
        if (self.sender_id, message.id) in standing.used_ids:
            return Path.FULL  # a replay, or an id used elsewhere
        group_messages.check_open(at)
        deeper, floor_move = group_messages.check_in_flow(message, self.sender_id, at, standing.now)
        plain = isinstance(message, Message) and message.task_id is None and not message.mentions
        plain = plain and not message.next_speaker and not deeper and floor_move is None
        return Path.PLAIN if plain and not at.muted else Path.FULL

    def _session_path(self, standing: Standing) -> Path:
        at = self.place = standing.participations.get((self.session_id or "", self.sender_id))
        if at is None:
            raise SessionNotFound(f"No session {self.session_id!r}.")
        message = self.message
        if message is None:
            return Path.FULL  # a relayed answer: its checks need the partner's key
        messages.check_post(message, self.sender_id, at)
        if (self.sender_id, message.id) in standing.used_ids:
            return Path.FULL
        messages.check_open(message, at)
        plain = isinstance(message, Message) and message.task_id is None
        return Path.PLAIN if plain else Path.FULL

    def reset(self) -> None:
        """Forget what a rolled-back attempt at writing it decided."""
        self.outcome, self.error, self.row, self.told = None, None, None, []
        self.membership, self.place = None, None

    @property
    def stored_session_id(self) -> str:
        """The session the record is stored in, once admitted."""
        at = self.membership or self.place
        assert at is not None
        return at.session_id

    async def write(self, db: AsyncSession, *, fresh: bool) -> Outcome:
        """The full path: the kind's own service, uncommitted (``fresh``: the sender has
        stored no message with this id). Under the recording span, when tracing (the rows
        and deliveries it makes carry it)."""
        with tracing.attached(self.trace):
            return await self._write(db, fresh=fresh)

    async def _write(self, db: AsyncSession, *, fresh: bool) -> Outcome:
        if self.group_id is not None:
            assert self.message is not None
            return await write_group_message(
                db,
                sender_id=self.sender_id,
                group_id=self.group_id,
                message=self.message,
                at=self.membership,
                fresh=fresh,
            )
        assert self.place is not None
        if self.answer is not None:
            return await write_answer(db, caller_id=self.sender_id, body=self.answer, at=self.place)
        assert self.message is not None
        return await write_session_message(
            db, sender_id=self.sender_id, message=self.message, at=self.place, fresh=fresh
        )


@dataclass
class Standing:
    """What the batch's admission reads: one query each, for every record in it."""

    keys: dict[str, str]  # registered senders → their key thumbprints
    memberships: dict[tuple[str, str], Membership]  # (group, sender)
    participations: dict[tuple[str, str], Participation]  # (session, sender)
    used_ids: set[tuple[str, str]]  # (sender, message id) stored before
    now: datetime = field(default_factory=utcnow)  # when the batch was admitted

    @classmethod
    async def read(cls, conn: AsyncConnection, batch: Sequence[Record]) -> Standing:
        senders = list({r.sender_id for r in batch})
        ids = list({r.message.id for r in batch if r.message is not None})
        keys: dict[str, str] = {}
        used = set()
        for kind, agent_id, value in await rows(
            conn, _KEYS_AND_USED_IDS, {"senders": senders, "ids": ids}
        ):
            if kind == "key":
                keys[agent_id] = value
            else:
                used.add((agent_id, value))
        groups = list({r.group_id for r in batch if r.group_id is not None})
        memberships = {}
        if groups:
            params = {"groups": groups, "senders": senders}
            floors: dict[str, FloorState] = {}  # one a group: a post that moves it, moves it
            for row in await rows(conn, _MEMBERSHIPS, params):
                floor = floors.setdefault(row[0], FloorState(row[8], row[9], row[10], row[11]))
                session_id, role, state, muted, conversation, session_state = row[2:8]
                memberships[(row[0], row[1])] = Membership(
                    session_id, role, state, muted, conversation, session_state, floor
                )
        sessions = list({r.session_id for r in batch if r.group_id is None and r.session_id})
        participations = {}
        if sessions:
            params = {"sessions": sessions, "senders": senders}
            for p in await rows(conn, _PARTICIPATIONS, params):
                session_id, sender, leader, state, closed_at, mode, bridge = p
                participations[(session_id, sender)] = Participation(
                    session_id, leader, state, closed_at, mode, bridged=bridge is not None
                )
        return cls(keys, memberships, participations, used)

    def stored(self, record: Record) -> None:
        """Mark the id a full-path record was stored as used by whom it was stored for: a
        signed relay is stored as its partner's own record, so the partner's record of the
        same answer later in the batch must find it (the full path), not be flushed beside
        it (a constraint would refuse the flush, and the batch be written again)."""
        if record.outcome is not None:
            body = record.outcome[0]
            self.used_ids.add((body["senderId"], body["id"]))

    def use(self, record: Record) -> bool:
        """Mark the record's id as used by its sender; whether it was before (stored, or
        earlier in this batch)."""
        if record.message is None:
            return True
        key = (record.sender_id, record.message.id)
        used = key in self.used_ids
        self.used_ids.add(key)
        return used


_KEYS_AND_USED_IDS = Prepared(
    union_all(
        # the registered senders, with the thumbprints of their keys (``CURRENT_KEYS``)
        select(literal_column("'key'"), col(Agent.id), col(Agent.key_thumbprint)).where(
            col(Agent.id).in_(bindparam("senders", expanding=True)),
            col(Agent.deleted_at).is_(None),
        ),
        # which of the batch's message ids its senders used before
        select(
            literal_column("'used'"), col(StoredMessage.sender_id), col(StoredMessage.message_id)
        ).where(
            col(StoredMessage.message_id).in_(bindparam("ids", expanding=True)),
            col(StoredMessage.sender_id).in_(bindparam("senders", expanding=True)),
        ),
    )
)
"""Two of the standing's questions in one statement: a statement less a batch."""


_MEMBERSHIPS = Prepared(
    select(
        col(Group.id),
        col(GroupMember.agent_id),
        col(Group.session_id),
        col(GroupMember.role),
        col(GroupMember.state),
        col(GroupMember.muted),
        col(Group.conversation_state),
        col(Session.state),
        col(Group.speaking_policy),
        col(Group.floor),
        col(Group.floor_deadline),
        col(Group.turn_timeout_seconds),
    )
    .join(GroupMember, col(GroupMember.group_id) == col(Group.id))
    .join(Session, col(Session.id) == col(Group.session_id))
    .where(
        col(Group.id).in_(bindparam("groups", expanding=True)),
        col(GroupMember.agent_id).in_(bindparam("senders", expanding=True)),
    )
)


_PARTICIPATIONS = Prepared(
    select(
        col(Session.id),
        col(SessionParticipant.agent_id),
        col(Session.leader_id),
        col(Session.state),
        col(Session.closed_at),
        col(SessionParticipant.mode),
        col(Session.bridge),
    )
    .join(SessionParticipant, col(SessionParticipant.session_id) == col(Session.id))
    .where(
        col(Session.id).in_(bindparam("sessions", expanding=True)),
        col(SessionParticipant.agent_id).in_(bindparam("senders", expanding=True)),
    )
)


"""Built once: building a statement costs more than running it on SQLite."""
