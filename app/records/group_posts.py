"""A group post on the full path: stored with the group's next seq (``records.ingest``
commits it, and writes plain ones in bulk, ``records.plain``), then fanned out by the
broker; beside it, a post's standing (``Membership``) and the checks it passes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

import agenthub.tracing as tracing
from agenthub.protocol.groups import ConversationState, MemberState
from agenthub.protocol.messages import Message
from app.agents.models import Agent
from app.auth.principal import Principal
from app.core.models import StoredMessage
from app.core.outbox import message_delivery
from app.core.unit_of_work import stage
from app.groups.access import MANAGERS, active_group
from app.groups.errors import GroupConcluded, GroupNotFound
from app.groups.events import group_channel, take_post_seqs
from app.groups.flow import FloorMove, FloorState, check_deeper, check_flow, check_speakers
from app.groups.flow import move_floor as store_floor_move
from app.groups.membership import grant_mentions, use_speak_grant
from app.groups.models import GroupMember
from app.models.types import utcnow
from app.records.errors import MessageIdReused, MisaddressedMessage, SenderNotCaller
from app.records.messages import (
    after_task_move,
    as_received,
    as_record,
    check_has_data,
    check_sender_role,
    insert_message,
    move_status,
)
from app.records.stored import find_record
from app.sessions.errors import SessionClosed
from app.sessions.models import Session
from app.tasks.service import AnyTaskMessage, Outcome, TaskMove, apply_task_message


@dataclass(frozen=True)
class Membership:
    """A sender's standing in a group it posts to, as one read gives it."""

    session_id: str
    role: str
    member_state: str
    muted: bool
    conversation_state: str
    session_state: str
    floor: FloorState = field(compare=False)

    @property
    def active(self) -> bool:
        return self.member_state == MemberState.ACTIVE.value


def check_post(message: AnyTaskMessage, sender_id: str, group_id: str, at: Membership) -> None:
    """The message fits the group and its sender's part there (an active member's)."""
    check_has_data(message)
    if message.sender_id != sender_id:
        raise SenderNotCaller("senderId must be the authenticated agent.")
    if message.group_id not in (None, group_id):
        raise MisaddressedMessage("The message's groupId is not this group.")
    if message.session_id not in (None, at.session_id):
        raise MisaddressedMessage("The message's sessionId is not this group's session.")
    check_sender_role(message, may_lead=at.role in MANAGERS)


def check_open(at: Membership) -> None:
    """The group still takes messages: not concluded, and its session not closed."""
    if at.conversation_state == ConversationState.CONCLUSION.value:
        raise GroupConcluded("The group has concluded.")
    if at.session_state == "closed":
        raise SessionClosed("The session is closed.")


def check_in_flow(
    message: AnyTaskMessage, sender_id: str, at: Membership, now: datetime
) -> tuple[bool, FloorMove | None]:
    """The conversation state and the floor take this post (``flow.check_flow``)."""
    return check_flow(
        message,
        sender_id,
        role=at.role,
        state=at.conversation_state,
        floor=at.floor,
        now=now,
    )


async def _membership(db: AsyncSession, sender_id: str, group_id: str) -> Membership:
    """The sender's standing read one by one, with the precise refusal of a sender that is
    no active member (404 for a group it may not see, else 403)."""
    caller = await db.get(Agent, sender_id)
    if caller is None or caller.deleted_at is not None:
        raise GroupNotFound(f"No group {group_id!r}.")
    group, member = await active_group(db, group_id, Principal(agent=caller, is_operator=False))
    session = await db.get(Session, group.session_id)
    return Membership(
        group.session_id,
        member.role,
        member.state,
        member.muted,
        group.conversation_state,
        session.state if session is not None else "",
        FloorState.of(group),
    )


def replayed_group_message(existing: StoredMessage, group_id: str) -> dict[str, Any]:
    """The body stored the first time, for a message posted again to the same group."""
    if existing.group_id != group_id:
        raise MessageIdReused("This message id was already used elsewhere by this sender.")
    return existing.body


async def _active_members(db: AsyncSession, group_id: str) -> set[str]:
    rows = await db.exec(
        select(GroupMember.agent_id).where(
            col(GroupMember.group_id) == group_id,
            col(GroupMember.state) == MemberState.ACTIVE.value,
        )
    )
    return set(rows.all())


async def write_group_message(
    db: AsyncSession,
    *,
    sender_id: str,
    group_id: str,
    message: AnyTaskMessage,
    at: Membership | None,
    fresh: bool = False,
) -> tuple[dict[str, Any], int]:
    """Store the message under the group's next seq, uncommitted, and stage its delivery:
    the body and its status (as ``messages.write_session_message``). The path of a post
    that needs more than a row (``records.ingest`` writes plain ones in bulk). ``at``: the
    sender's standing, read and found active, with ``check_post`` passed (``None``: read and
    check it here); ``fresh``: the caller knows this sender has stored no message with this
    id."""
    if at is None:
        at = await _membership(db, sender_id, group_id)
        check_post(message, sender_id, group_id, at)
    message = as_received(message)
    existing, record_id = None, message.id
    if not fresh:
        existing, record_id = await find_record(
            db, sender_id, message, session_id=at.session_id, group_id=group_id
        )
    if existing is not None:
        return replayed_group_message(existing, group_id), 200
    check_open(at)
    deeper, floor_move = check_in_flow(message, sender_id, at, utcnow())
    if at.muted:
        await use_speak_grant(db, group_id, sender_id)
    if deeper:
        await check_deeper(db, message, sender_id, group_id, at.conversation_state)
    if message.next_speaker:
        await check_speakers(db, group_id, message.next_speaker)
    move = TaskMove(None)
    plain = isinstance(message, Message) and message.task_id is None
    if not plain:
        members = await _active_members(db, group_id)
        move = await apply_task_message(
            db,
            as_record(message, record_id),
            session_id=at.session_id,
            group_id=group_id,
            members=members,
        )
    seq = await take_post_seqs(await db.connection(), group_id, 1)
    if seq is None:  # concluded since this post was admitted
        raise GroupConcluded("The group has concluded.")
    body = await insert_message(
        db,
        message,
        session_id=at.session_id,
        task_id=move.task_id,
        group_id=group_id,
        seq=seq,
        record_id=record_id,
        waiting=move.outcome is Outcome.NOT_YET,
    )
    if message.mentions:
        await grant_mentions(db, group_id, sender_id, message.mentions)
    if not plain:
        await after_task_move(db, message, move, at.session_id)
    delivery = message_delivery(seq, sender_id, body, tracing.current_traceparent())
    stage(db, group_channel(group_id), delivery)
    if floor_move is not None:
        await store_floor_move(db, group_id, floor_move, by=sender_id)
        at.floor.speakers, at.floor.deadline = floor_move.speakers, floor_move.deadline
    return body, move_status(move.outcome)
