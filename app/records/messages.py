"""Recording messages in a session's history; the task projection rides along.

Point-to-point messages are recorded here; group posts (``records.group_posts``) share
the insert, the retry loop and what a task move sets off.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

import agenthub.tracing as tracing
from agenthub.protocol.messages import (
    Message,
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskStatusUpdate,
)
from agenthub.protocol.sessions import MessagePage
from app.auth.principal import Principal
from app.core.models import StoredMessage
from app.core.unit_of_work import task_may_have_ended, tell_operator_message
from app.inbox.events import append_inbox_event
from app.models.types import utcnow
from app.pages import PAGE_BYTES
from app.prepared import Prepared, run
from app.records.errors import (
    MessageIdReused,
    MessageWithoutData,
    MisaddressedMessage,
    SenderNotCaller,
    WrongSenderRole,
)
from app.records.stored import HUB_FIELDS, Placement, find_record, stored_body, stored_row
from app.sessions.errors import SessionClosed
from app.sessions.message_pages import message_page
from app.sessions.modes import check_p2p_report, p2p_partners
from app.sessions.service import readable_session
from app.tasks.service import AnyTaskMessage, Outcome, TaskMove, apply_task_message

INSERT_MESSAGE = Prepared(insert(StoredMessage))
"""Built once: building a statement costs more than running it on SQLite."""


@dataclass(frozen=True)
class Participation:
    """A sender's place in a session it records to, as one read gives it."""

    session_id: str
    leader_id: str | None
    state: str
    closed_at: datetime | None
    mode: str | None = None  # the sender's as a receiver (None: the leader)
    bridged: bool = False  # a bridge session: the leader is its own tasks' partner too


def check_has_data(message: AnyTaskMessage) -> None:
    """GB/Z 185.6 Table 1 #4 and Table 3: a message is its data. Task commands and results
    may carry none, as AIP allows (a ``complete`` has nothing more to say)."""
    if isinstance(message, Message) and not message.data_items:
        raise MessageWithoutData("A plain message needs at least one data item (dataItems).")


def check_post(message: AnyTaskMessage, sender_id: str, at: Participation) -> None:
    """The message fits the session and its sender's part in it."""
    check_has_data(message)
    if message.sender_id != sender_id:
        raise SenderNotCaller("senderId must be the authenticated agent.")
    if message.session_id not in (None, at.session_id):
        raise MisaddressedMessage("The message's sessionId is not this session.")
    if message.group_id is not None or message.next_speaker:
        raise MisaddressedMessage(
            "Group messages (and nextSpeaker) go to /v1/groups/{groupId}/messages."
        )
    check_sender_role(message, may_lead=at.leader_id == sender_id)


def check_open(message: AnyTaskMessage, at: Participation) -> None:
    """The session takes the message: open, or it records a move made before it closed."""
    if at.state == "closed" and not late_record(message, at.closed_at):
        raise SessionClosed("The session is closed.")


def check_sender_role(message: AnyTaskMessage, *, may_lead: bool) -> None:
    """``senderRole`` is the sender's part, not a claim: task commands come from leaders
    and reports from partners (AIP), and a plain message says ``leader`` only from the
    session's leader (or, in a group, its owner or an admin)."""
    if isinstance(message, TaskCommand):
        wanted: str | None = "leader"
    elif isinstance(message, TaskResult | TaskStatusUpdate | ProductChunk):
        wanted = "partner"
    else:
        wanted = None if may_lead else "partner"
    role = getattr(message.sender_role, "value", message.sender_role)
    if wanted is not None and role != wanted:
        raise WrongSenderRole(f"senderRole must be {wanted!r} for this message from this sender.")


async def insert_message(
    db: AsyncSession,
    message: AnyTaskMessage,
    *,
    session_id: str,
    task_id: str | None,
    group_id: str | None = None,
    seq: int | None = None,
    sender_id: str | None = None,
    record_id: str | None = None,
    waiting: bool = False,
) -> dict[str, Any]:
    """One Core INSERT of the message as stored; returns its stored body. ``sender_id``:
    whose record the row is, when not the message's sender (a relayed answer's leader);
    ``record_id``: the id it is recorded under, when not its own (``find_record``);
    ``waiting``: its task move waits for one that allows it."""
    at = Placement(session_id, utcnow(), task_id, group_id, seq, tracing.current_traceparent())
    body = stored_body(message, at)
    row = stored_row(message, body, at)
    row["waiting"] = waiting
    if sender_id is not None:
        row["sender_id"] = sender_id
    if record_id is not None:
        row["message_id"] = record_id
    await run(await db.connection(), INSERT_MESSAGE, row)
    tell_operator_message(db, body)
    return body


async def after_task_move(
    db: AsyncSession, message: AnyTaskMessage, move: TaskMove, session_id: str
) -> None:
    """What a task message sets off: the partner's inbox copy now, and, once the move is
    committed, the triggers it may have made ready (``records.ingest`` fires them)."""
    if move.inbox is not None:
        await append_inbox_event(db, move.inbox, "task", message.to_wire())
    if move.final and move.task_id is not None:  # a trigger waits for final states
        task_may_have_ended(db, (move.task_id, session_id))  # their triggers: after COMMIT


def late_record(message: AnyTaskMessage, closed_at: datetime | None) -> bool:
    """A record of a task's move sent before its session closed: what happened then still
    belongs in the record (the other side's records trail its answers)."""
    late = isinstance(message, TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk)
    if isinstance(message, TaskCommand) and message.command == TaskCommandType.START:
        return False
    return late and closed_at is not None and message.sent_at <= closed_at


def as_received(message: AnyTaskMessage) -> AnyTaskMessage:
    """The message without the fields only the hub sets (a sender's values are dropped)."""
    if all(getattr(message, name) is None for name in HUB_FIELDS):
        return message  # as senders send them
    return message.model_copy(update=dict.fromkeys(HUB_FIELDS))


def as_record(message: AnyTaskMessage, record_id: str) -> AnyTaskMessage:
    """The message as the task fold knows it: by the id it is recorded under (a fold tells
    records apart by sender and id; ``find_record``)."""
    return message if record_id == message.id else message.model_copy(update={"id": record_id})


async def write_session_message(
    db: AsyncSession,
    *,
    sender_id: str,
    message: AnyTaskMessage,
    at: Participation,
    fresh: bool = False,
) -> tuple[dict[str, Any], int]:
    """Store the message (moving its task), uncommitted: the body and its status, ``201``
    for a new message, ``202`` for a new one whose task move waits (for the task, or for a
    move that allows it), ``200`` for one stored before. Raises the refusal otherwise.
    ``at``: the sender's place in the session, read in this transaction, with ``check_post``
    passed; ``fresh``: the caller knows this sender has stored no message with this id."""
    message = as_received(message)
    existing, record_id = None, message.id
    if not fresh:
        existing, record_id = await find_record(db, sender_id, message, session_id=at.session_id)
    if existing is not None:
        return replayed_session_message(existing, at.session_id), 200
    check_open(message, at)
    # who takes part matters to a start and to plain talk about a task, not to a report
    reports = isinstance(message, TaskResult | TaskStatusUpdate | ProductChunk)
    if reports:
        members: set[str] = set()
        await check_p2p_report(db, message, at.session_id, at.mode)
    else:
        members = await p2p_partners(db, message, at.session_id)
    move = await apply_task_message(
        db,
        as_record(message, record_id),
        session_id=at.session_id,
        group_id=None,
        members=members,
        session_leader_id=at.leader_id,
        self_partner=at.bridged,
    )
    body = await insert_message(
        db,
        message,
        session_id=at.session_id,
        task_id=move.task_id,
        record_id=record_id,
        waiting=move.outcome is Outcome.NOT_YET,
    )
    await after_task_move(db, message, move, at.session_id)
    return body, move_status(move.outcome)


def move_status(outcome: Outcome) -> int:
    return 202 if outcome is Outcome.NOT_YET else 201


def replayed_session_message(existing: StoredMessage, session_id: str) -> dict[str, Any]:
    """The body stored the first time, for a message sent again to the same session."""
    if existing.session_id != session_id or existing.group_id is not None:
        raise MessageIdReused("This message id was already used elsewhere by this sender.")
    return existing.body


async def list_session_messages(
    db: AsyncSession,
    *,
    principal: Principal,
    session_id: str,
    after: str | None,
    limit: int,
    max_bytes: int = PAGE_BYTES,
) -> MessagePage:
    """The session's point-to-point messages, to a participant or the operator."""
    await readable_session(db, session_id, principal)
    stmt = select(StoredMessage).where(
        col(StoredMessage.session_id) == session_id, col(StoredMessage.group_id).is_(None)
    )
    return await message_page(
        db, stmt, after=after, limit=limit, max_bytes=max_bytes, session_id=session_id
    )
