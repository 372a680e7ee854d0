"""Pause and trigger (IoA §2.3.4): fire ``trigger.fired`` once when a trigger's tasks end.

Firing is a conditional UPDATE (``fired_at IS NULL``), so a trigger fires exactly once,
across replicas and restarts: right after the transaction that made its last task final
(one transaction a trigger), by the timer when the deadline passes, and by the timer's sweep
for any that became ready while no one fired them (a process stopped in between). A task
has at most ``MAX_TRIGGERS_PER_TASK`` pending triggers, a group ``MAX_PENDING_PER_GROUP``:
1,000 triggers on 100 tasks once made one report take 8.5 s and stalled every writer.
A group that waits in ``pause-and-trigger`` goes back to ``discussion`` when its trigger
fires.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import and_, bindparam, exists, func, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.groups import ConversationState, TriggerCreate, TriggerFired, TriggerView
from agenthub.protocol.tasks import FINAL_STATES
from app.auth.principal import Principal
from app.core.unit_of_work import transaction
from app.db import SessionFactory
from app.groups.access import load_group, require_manager, visible_group
from app.groups.conversation import move_conversation
from app.groups.errors import GroupConcluded
from app.groups.events import append_group_event
from app.groups.models import GroupTrigger, GroupTriggerTask
from app.inbox.events import append_inbox_event
from app.models.types import utcnow
from app.prepared import Prepared, rows
from app.tasks.errors import UnknownTask
from app.tasks.models import Task
from app.triggers.errors import TooManyTriggers

DUE_BATCH = 100
MAX_TRIGGERS_PER_TASK = 32
MAX_PENDING_PER_GROUP = 256
_FINAL = frozenset(s.value for s in FINAL_STATES)


def trigger_view(trigger: GroupTrigger) -> TriggerView:
    return TriggerView.model_validate(
        {
            "id": trigger.id,
            "groupId": trigger.group_id,
            "createdBy": trigger.created_by,
            "taskIds": trigger.task_ids,
            "deadline": trigger.deadline,
            "firedAt": trigger.fired_at,
            "outcome": trigger.outcome,
            "createdAt": trigger.created_at,
        }
    )


async def _tasks(db: AsyncSession, session_id: str, task_ids: list[str]) -> list[Task]:
    """Fresh from the store: a task may have moved in this transaction through Core."""
    stmt = select(Task).where(col(Task.session_id) == session_id, col(Task.id).in_(task_ids))
    rows = await db.exec(stmt.execution_options(populate_existing=True))
    return list(rows.all())


async def _trigger_tasks(db: AsyncSession, trigger: GroupTrigger) -> list[Task]:
    """The trigger's tasks, fresh, in the order it names them."""
    stmt = select(Task).join(
        GroupTriggerTask,
        and_(
            col(GroupTriggerTask.trigger_id) == trigger.id,
            col(GroupTriggerTask.task_id) == col(Task.id),
            col(GroupTriggerTask.session_id) == col(Task.session_id),
        ),
    )
    rows = await db.exec(stmt.execution_options(populate_existing=True))
    order = {task_id: i for i, task_id in enumerate(trigger.task_ids)}
    return sorted(rows.all(), key=lambda t: order.get(t.id, len(order)))


async def create_trigger(
    db: AsyncSession, *, group_id: str, principal: Principal, body: TriggerCreate
) -> TriggerView:
    group, _ = await require_manager(db, group_id, principal)
    if group.conversation_state == ConversationState.CONCLUSION.value:
        raise GroupConcluded("The group has concluded.")
    task_ids = list(dict.fromkeys(body.task_ids))
    tasks = await _tasks(db, group.session_id, task_ids)
    known = {t.id for t in tasks}
    missing = [t for t in task_ids if t not in known]
    if missing:
        raise UnknownTask(f"No task {missing[0]!r} in this group's session.")
    await _check_caps(db, group_id, group.session_id, task_ids)
    now = utcnow()
    deadline = now + timedelta(seconds=body.timeout_seconds) if body.timeout_seconds else None
    trigger = GroupTrigger(
        id=f"trg-{uuid.uuid4().hex}",
        group_id=group_id,
        created_by=principal.agent_id or group.owner_id,
        task_ids=task_ids,
        deadline=deadline,
        created_at=now,
    )
    db.add(trigger)
    db.add_all(
        [
            GroupTriggerTask(trigger_id=trigger.id, task_id=t, session_id=group.session_id)
            for t in task_ids
        ]
    )
    await db.flush()
    if all(t.state in _FINAL for t in tasks):
        await _fire(db, trigger, "completed", tasks)
    await db.flush()
    await db.refresh(trigger)
    return trigger_view(trigger)


async def _check_caps(
    db: AsyncSession, group_id: str, session_id: str, task_ids: list[str]
) -> None:
    pending = await db.scalar(
        select(func.count())
        .select_from(GroupTrigger)
        .where(col(GroupTrigger.group_id) == group_id, col(GroupTrigger.fired_at).is_(None))
    )
    if (pending or 0) >= MAX_PENDING_PER_GROUP:
        raise TooManyTriggers(f"The group has {pending} pending triggers, the most it may.")
    rows = await db.exec(
        select(GroupTriggerTask.task_id, func.count())
        .join(GroupTrigger, col(GroupTrigger.id) == col(GroupTriggerTask.trigger_id))
        .where(
            col(GroupTriggerTask.task_id).in_(task_ids),
            col(GroupTriggerTask.session_id) == session_id,
            col(GroupTrigger.fired_at).is_(None),
        )
        .group_by(col(GroupTriggerTask.task_id))
    )
    for task_id, count in rows.all():
        if count >= MAX_TRIGGERS_PER_TASK:
            raise TooManyTriggers(f"Task {task_id!r} has {count} pending triggers, the most.")


async def list_triggers(
    db: AsyncSession, *, group_id: str, principal: Principal
) -> list[TriggerView]:
    await visible_group(db, group_id, principal)
    rows = await db.exec(
        select(GroupTrigger)
        .where(col(GroupTrigger.group_id) == group_id)
        .order_by(col(GroupTrigger.created_at), col(GroupTrigger.id))
    )
    return [trigger_view(t) for t in rows.all()]


async def _fire(db: AsyncSession, trigger: GroupTrigger, outcome: str, tasks: list[Task]) -> bool:
    """Fire the trigger, once; never into a concluded group (its conclusion cancels its
    triggers; one claimed before that commits is dropped here)."""
    group = await load_group(db, trigger.group_id, for_update=True)
    if group.conversation_state == ConversationState.CONCLUSION.value:
        return False
    now = utcnow()
    claimed = await db.exec(
        update(GroupTrigger)
        .where(col(GroupTrigger.id) == trigger.id, col(GroupTrigger.fired_at).is_(None))
        .values(fired_at=now, outcome=outcome)
    )
    if claimed.rowcount != 1:
        return False
    event = TriggerFired(
        group_id=trigger.group_id,
        trigger_id=trigger.id,
        outcome=outcome,
        tasks=[{"id": t.id, "state": t.state} for t in tasks],
        at=now,
    )
    await append_group_event(db, trigger.group_id, "trigger.fired", event)
    await append_inbox_event(db, trigger.created_by, "trigger.fired", event)
    if group.conversation_state == ConversationState.PAUSE_AND_TRIGGER.value:
        await move_conversation(
            db, group, ConversationState.DISCUSSION, by=None, reason=f"trigger {trigger.id}"
        )
    return True


_PENDING_OF = Prepared(
    # the tasks' ids and sessions, not their pairs: SQLite scans every row for a list of row
    # values. A trigger of another pair among them is only looked at: it fires when ready.
    select(col(GroupTrigger.id))
    .join(GroupTriggerTask, col(GroupTriggerTask.trigger_id) == col(GroupTrigger.id))
    .where(
        col(GroupTriggerTask.task_id).in_(bindparam("tasks", expanding=True)),
        col(GroupTriggerTask.session_id).in_(bindparam("sessions", expanding=True)),
        col(GroupTrigger.fired_at).is_(None),
    )
    .distinct()
)


async def fire_ready_triggers(factory: SessionFactory, tasks: Collection[tuple[str, str]]) -> int:
    """After committed moves of ``tasks`` ((task id, session id)): fire each of their pending
    triggers whose tasks are all final now, each in a transaction of its own. One read for
    them all: a batch ends tens of tasks, and most have no trigger."""
    params = {"tasks": sorted({t for t, _ in tasks}), "sessions": sorted({s for _, s in tasks})}
    async with factory() as db:
        found = await rows(await db.connection(), _PENDING_OF, params)
    return await _fire_each_if_ready(factory, sorted(trigger_id for (trigger_id,) in found))


async def fire_ready_sweep(factory: SessionFactory) -> int:
    """The timer's sweep: pending triggers whose every task is final (a firing that a
    stopped process never did), at most ``DUE_BATCH`` at a time."""
    live = (
        select(GroupTriggerTask.trigger_id)
        .join(
            Task,
            and_(
                col(Task.id) == col(GroupTriggerTask.task_id),
                col(Task.session_id) == col(GroupTriggerTask.session_id),
            ),
        )
        .where(
            col(GroupTriggerTask.trigger_id) == col(GroupTrigger.id),
            or_(col(Task.state).is_(None), col(Task.state).not_in(list(_FINAL))),
        )
    )
    async with factory() as db:
        found = await db.exec(
            select(GroupTrigger.id)
            .where(col(GroupTrigger.fired_at).is_(None), ~exists(live))
            .limit(DUE_BATCH)
        )
        trigger_ids = list(found.all())
    return await _fire_each_if_ready(factory, trigger_ids)


async def _fire_each_if_ready(factory: SessionFactory, trigger_ids: list[str]) -> int:
    fired = 0
    for trigger_id in trigger_ids:
        async with transaction(factory) as db:
            # the group first, as a conclusion locks it before cancelling its triggers
            group_id = await db.scalar(
                select(GroupTrigger.group_id).where(col(GroupTrigger.id) == trigger_id)
            )
            if group_id is not None:
                await load_group(db, group_id, for_update=True)
            # two last tasks ending at once: the second waits here and then sees the first
            trigger = (
                await db.exec(
                    select(GroupTrigger)
                    .where(col(GroupTrigger.id) == trigger_id)
                    .with_for_update()
                    .execution_options(populate_existing=True)
                )
            ).first()
            if trigger is not None and trigger.fired_at is None:
                tasks = await _trigger_tasks(db, trigger)
                if all(t.state in _FINAL for t in tasks):
                    fired += await _fire(db, trigger, "completed", tasks)
    return fired


async def fire_due_triggers(factory: SessionFactory) -> int:
    """Fire the pending triggers whose deadline has passed; one transaction each."""
    now = utcnow()
    async with factory() as db:
        due = await db.exec(
            select(GroupTrigger.id)
            .where(col(GroupTrigger.fired_at).is_(None), col(GroupTrigger.deadline) <= now)
            .order_by(col(GroupTrigger.deadline))
            .limit(DUE_BATCH)
        )
        trigger_ids = list(due.all())
    fired = 0
    for trigger_id in trigger_ids:
        async with transaction(factory) as db:
            trigger = await db.get(GroupTrigger, trigger_id)
            if trigger is not None:
                fired += await _fire(db, trigger, "timeout", await _trigger_tasks(db, trigger))
    return fired
