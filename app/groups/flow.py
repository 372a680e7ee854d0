"""IoA conversation flow control in the group write path: the posting table (who may post
what in each conversation state), the floor of the ``turns`` speaking policy, its timeout,
and the release of a concluded group's members.

The pure checks (``check_flow``) run on the standing the batch writer's one admission query
reads (``records.group_posts.Membership``, which carries the group's ``FloorState``). What
needs more than those rows (is the sender an assignee, is the task one a trigger waits for,
are the named next speakers active members) runs on the full path only, which a plain
message in ``discussion`` under the ``free`` policy never takes: the common case costs no
query more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import (
    PAUSED_TASKS_ONLY,
    POSTING,
    ConversationState,
    FloorEvent,
    FloorReason,
    GroupUpdate,
    MemberState,
    PostKind,
)
from agenthub.protocol.messages import Message, TaskCommand
from agenthub.protocol.tasks import FINAL_STATES
from app.core.unit_of_work import transaction
from app.db import SessionFactory
from app.groups.errors import NotAllowedInState, NotYourTurn, SelfNamedSpeaker, SpeakerNotMember
from app.groups.events import append_group_event
from app.groups.models import Group, GroupMember, GroupTrigger, GroupTriggerTask
from app.models.types import utcnow
from app.tasks.models import Task
from app.tasks.service import AnyTaskMessage

DUE_BATCH = 100
SPEAKING_FIELDS = frozenset({"speaking_policy", "turn_timeout_seconds"})
TURNS = "turns"
CHAIR = "owner"  # under turns the owner may always speak (and name the next speakers)
_FINAL = [s.value for s in FINAL_STATES]


@dataclass
class FloorState:
    """A group's speaking policy and floor, as one read gives it; shared by a batch's
    memberships of the group, so a post that moves the floor moves it for the next ones."""

    policy: str
    speakers: list[str] | None
    deadline: datetime | None
    timeout_seconds: float

    @classmethod
    def of(cls, group: Group) -> FloorState:
        return cls(
            group.speaking_policy, group.floor, group.floor_deadline, group.turn_timeout_seconds
        )

    def holders(self, now: datetime) -> list[str] | None:
        """Who holds the floor now (``None``: it is open; a passed deadline opens it)."""
        if self.policy != TURNS or self.speakers is None:
            return None
        if self.deadline is not None and self.deadline <= now:
            return None
        return self.speakers


def floor_view(group: Group, now: datetime) -> dict[str, object]:
    """The floor as the group view shows it: a turn past its deadline is over."""
    speakers = FloorState.of(group).holders(now)
    return {"speakers": speakers, "deadline": group.floor_deadline if speakers else None}


@dataclass(frozen=True)
class FloorMove:
    speakers: list[str] | None
    deadline: datetime | None
    reason: FloorReason


def post_kind(message: AnyTaskMessage) -> PostKind:
    if isinstance(message, Message):
        return PostKind.MESSAGE
    if isinstance(message, TaskCommand):
        return PostKind.COMMAND
    return PostKind.REPORT


def check_flow(
    message: AnyTaskMessage,
    sender_id: str,
    *,
    role: str,
    state: str,
    floor: FloorState,
    now: datetime,
) -> tuple[bool, FloorMove | None]:
    """Refuse what the posting table or the floor refuses (pure). Whether the full path
    must check more (``check_deeper``), and how the post moves the floor (``None``: not)."""
    conversation = ConversationState(state)
    allowed = POSTING[conversation][post_kind(message)]
    deeper = conversation in PAUSED_TASKS_ONLY
    if role not in allowed:
        if "assignee" not in allowed:
            raise NotAllowedInState(
                f"In {state} the group takes no {post_kind(message).value} from a {role}."
            )
        deeper = True
    return deeper, _floor_after(message, sender_id, role, floor, now)


def _floor_after(
    message: AnyTaskMessage, sender_id: str, role: str, floor: FloorState, now: datetime
) -> FloorMove | None:
    if floor.policy != TURNS:
        return None
    holders = floor.holders(now)
    holds = holders is None or sender_id in holders or role == CHAIR
    if not holds and (post_kind(message) is not PostKind.REPORT or message.next_speaker):
        # a report on a task is no turn: it passes whoever holds the floor, naming no one
        raise NotYourTurn(f"The floor is {', '.join(holders or [])}'s (until {floor.deadline}).")
    if message.next_speaker:
        if sender_id in message.next_speaker:
            raise SelfNamedSpeaker(
                "Under turns a member cannot name itself the next speaker (it would keep the "
                "floor): name the others who should speak."
            )
        speakers = list(dict.fromkeys(message.next_speaker))
        return FloorMove(speakers, now + timedelta(seconds=floor.timeout_seconds), "named")
    if holders is not None and sender_id in holders:
        return FloorMove(None, None, "spoke")
    return None


async def off_the_floor(db: AsyncSession, group: Group, agent_id: str, *, by: str | None) -> None:
    """``agent_id``'s membership ended: it can no longer speak, so it no longer holds the
    floor (which opens, a ``floor`` event, if nobody is left holding it)."""
    holders = FloorState.of(group).holders(utcnow())
    if holders is None or agent_id not in holders:
        return
    rest = [s for s in holders if s != agent_id] or None
    move = FloorMove(rest, group.floor_deadline if rest else None, "left")
    await move_floor(db, group.id, move, by=by)
    group.floor, group.floor_deadline = move.speakers, move.deadline


async def check_deeper(
    db: AsyncSession, message: AnyTaskMessage, sender_id: str, group: str, state: str
) -> None:
    """What the posting table asks beyond the standing: in ``pause-and-trigger`` a post is
    on a task a pending trigger waits for; an ``assignee`` partners an open task here."""
    conversation = ConversationState(state)
    if conversation in PAUSED_TASKS_ONLY:
        task_id = getattr(message, "task_id", None)
        paused = await db.scalar(
            select(GroupTriggerTask.task_id)
            .join(GroupTrigger, col(GroupTrigger.id) == col(GroupTriggerTask.trigger_id))
            .where(
                col(GroupTrigger.group_id) == group,
                col(GroupTrigger.fired_at).is_(None),
                col(GroupTriggerTask.task_id) == task_id,
            )
            .limit(1)
        )
        if task_id is None or paused is None:
            raise NotAllowedInState(
                f"In {state} the group takes posts only on the tasks its triggers wait for."
            )
    if "assignee" in POSTING[conversation][post_kind(message)]:
        open_task = await db.scalar(
            select(Task.id)
            .where(
                col(Task.group_id) == group,
                col(Task.partner_id) == sender_id,
                or_(col(Task.state).is_(None), col(Task.state).not_in(_FINAL)),
            )
            .limit(1)
        )
        if open_task is None:
            raise NotAllowedInState(
                f"In {state} only the owner, admins and the partners of open tasks speak."
            )


async def check_speakers(db: AsyncSession, group_id: str, speakers: list[str]) -> None:
    """The named next speakers are active members of the group."""
    rows = await db.exec(
        select(GroupMember.agent_id).where(
            col(GroupMember.group_id) == group_id,
            col(GroupMember.agent_id).in_(speakers),
            col(GroupMember.state) == MemberState.ACTIVE.value,
        )
    )
    missing = set(speakers) - set(rows.all())
    if missing:
        raise SpeakerNotMember(f"nextSpeaker names {sorted(missing)[0]!r}, no active member here.")


async def move_floor(db: AsyncSession, group_id: str, move: FloorMove, *, by: str | None) -> None:
    """Store the floor's move and record it as a ``floor`` event (in the caller's
    transaction)."""
    await db.exec(
        update(Group)
        .where(col(Group.id) == group_id)
        .values(floor=move.speakers, floor_deadline=move.deadline)
    )
    event = FloorEvent(
        group_id=group_id,
        speakers=move.speakers,
        deadline=move.deadline,
        reason=move.reason,
        by=by,
        at=utcnow(),
    )
    await append_group_event(db, group_id, "floor", event, actor_id=by)


async def fire_due_floors(factory: SessionFactory) -> int:
    """The timer: open every floor whose turn timed out, once (a conditional UPDATE, so
    across replicas too), with its ``floor`` event; one transaction a group."""
    now = utcnow()
    async with factory() as db:
        due = await db.exec(
            select(Group.id, Group.floor_deadline)
            .where(col(Group.floor_deadline) <= now)
            .order_by(col(Group.floor_deadline))
            .limit(DUE_BATCH)
        )
        floors = list(due.all())
    opened = 0
    for group_id, deadline in floors:
        async with transaction(factory) as db:
            claimed = await db.exec(
                update(Group)
                .where(and_(col(Group.id) == group_id, col(Group.floor_deadline) == deadline))
                .values(floor=None, floor_deadline=None)
            )
            if claimed.rowcount == 1:
                event = FloorEvent(
                    group_id=group_id, speakers=None, reason="timeout", by=None, at=now
                )
                await append_group_event(db, group_id, "floor", event)
                opened += 1
    return opened


async def set_speaking(
    db: AsyncSession, group: Group, body: GroupUpdate, *, by: str | None
) -> None:
    """A PATCH's ``speakingPolicy`` and ``turnTimeoutSeconds``: a new policy opens the floor
    (a ``floor`` event, if someone held it); a new timeout counts from the next turn."""
    if body.turn_timeout_seconds is not None:
        group.turn_timeout_seconds = body.turn_timeout_seconds
    policy = body.speaking_policy
    if policy is not None and policy != group.speaking_policy:
        group.speaking_policy = policy
        if group.floor_deadline is not None:
            await move_floor(db, group.id, FloorMove(None, None, "policy"), by=by)
            group.floor, group.floor_deadline = None, None
    if body.turn_timeout_seconds is not None or policy is not None:
        group.updated_at = utcnow()
        db.add(group)
