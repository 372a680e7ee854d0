"""A batch's point-to-point task records, folded in memory (the record engine's fast path).

The writer (``records.ingest``) offers each admitted point-to-point task record here before
its full path. A record whose move ``app.tasks.projection.step`` decides from the task as the
batch holds it is *taken*: the task known (or made by this record, with nothing stored for
it before), nothing of it waiting, the record sent after everything the task has. A taken
record costs no statement of its own: its row goes into the writer's one INSERT, and
``flush`` writes what the batch's taken records did to their tasks with a few statements for
the whole batch (one INSERT of the tasks they made, one UPDATE run for all the tasks they
moved, the leaders' commands into their partners' inboxes by ``append_inbox_events``).

Every task is read once a batch, in one SELECT (``load``), locked on PostgreSQL; SQLite's
writer holds the write lock from its first read. Anything else — a refusal, a task with
waiting messages, a record sorting before what its task has, a start naming parents or
dependencies, a group-mode sender, an id used before — goes down the full
path, which reads its task again and answers exactly as it always has; the tasks held here
are then read again (``forget``).

Kept whole: the fast path's statements sit beside the one class that runs them, so a
reader sees every statement a batch's task records cost (that count is what this module is
for: BENCHMARKS.md, statements per task record).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import bindparam, insert, select, update
from sqlmodel import col

from agenthub.protocol.messages import (
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskStatusUpdate,
)
from agenthub.protocol.tasks import is_final
from app.core.models import StoredMessage
from app.core.operator_events import message_summary, task_summary
from app.core.unit_of_work import UnitOfWork
from app.errors import HubError
from app.inbox.events import append_inbox_events
from app.models.types import utcnow
from app.prepared import Prepared, rows, run_many
from app.records.messages import Participation, as_received, check_open
from app.records.stored import Placement, stored_body, stored_row
from app.sessions.models import SessionParticipant
from app.sessions.modes import GROUP
from app.tasks.models import Task
from app.tasks.projection import (
    NO_MOVE_COMMANDS,
    AnyTaskMessage,
    Outcome,
    role_error,
    sort_key,
    step,
)
from app.tasks.service import partner_of, task_facts, task_state
from app.tasks.store import TASK_TYPES


class Record(Protocol):
    """What this path reads and sets of a writer's record (``record.Record``), named here
    so that the writer imports this module and not the other way round."""

    outcome: tuple[dict[str, Any], int] | None
    told: list[tuple[str, dict[str, Any]]]
    trace: str | None

    @property
    def message(self) -> AnyTaskMessage | None: ...
    @property
    def group_id(self) -> str | None: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def answer(self) -> object | None: ...
    @property
    def place(self) -> Participation | None: ...
    @property
    def wire(self) -> dict[str, Any] | None: ...
    @property
    def received_at(self) -> datetime: ...
    @property
    def stored_session_id(self) -> str: ...


Key = tuple[str, str]  # (task id, session id)
_REPORTS = (TaskResult, TaskStatusUpdate, ProductChunk)
_TASKS = Task.__table__  # type: ignore[attr-defined]
_LOAD = Prepared(
    # the ids and the sessions, not the (id, session) pairs: SQLite answers a list of row
    # values by scanning every task (4.4 ms at 11,000 tasks, growing with the record),
    # these by the primary key (0.1 ms); the pairs are picked out of what it returns
    select(_TASKS)
    .where(
        _TASKS.c.id.in_(bindparam("ids", expanding=True)),
        _TASKS.c.session_id.in_(bindparam("sessions", expanding=True)),
    )
    .order_by(_TASKS.c.id, _TASKS.c.session_id)  # one order of locks for every replica
    .with_for_update()
)
_STORED_FOR = Prepared(
    select(col(StoredMessage.task_id), col(StoredMessage.session_id))
    .where(
        col(StoredMessage.task_id).in_(bindparam("tasks", expanding=True)),
        col(StoredMessage.session_id).in_(bindparam("sessions", expanding=True)),
        col(StoredMessage.type).in_(TASK_TYPES),
    )
    .distinct()
)
_MODES = Prepared(
    select(
        col(SessionParticipant.session_id),
        col(SessionParticipant.agent_id),
        col(SessionParticipant.mode),
    ).where(col(SessionParticipant.session_id).in_(bindparam("sessions", expanding=True)))
)
_MOVED = (
    "state",
    "status",
    "status_history",
    "products",
    "commanded",
    "last_key",
    "pending",
    "version",
    "updated_at",
)
_SAVE = Prepared(
    update(Task)
    .where(col(Task.id) == bindparam("t_id"), col(Task.session_id) == bindparam("t_session_id"))
    .values({name: bindparam(name) for name in _MOVED})
)
_INSERT = Prepared(insert(Task))
_TASK_COLUMNS = tuple(c.name for c in _TASKS.columns)  # as ``_LOAD`` reads them
"""Built once: building a statement costs more than running it on SQLite."""


@dataclass
class HeldTask:
    """A ``tasks`` row as the batch holds it: a plain object (an ORM instance cost ~8 % of
    the hub's CPU under bench.p2p, its instrumented attributes set on every move)."""

    id: str
    session_id: str
    group_id: str | None
    parent_task_id: str | None
    leader_id: str
    partner_id: str
    state: str | None
    status: dict[str, Any] | None
    products: list[dict[str, Any]]
    status_history: list[dict[str, Any]]
    dependencies: list[str]
    commanded: bool
    version: int
    last_key: str | None
    pending: int
    created_at: datetime
    updated_at: datetime
    released_at: datetime | None


_COLUMNS = tuple(f.name for f in fields(HeldTask))


def _task_message(record: Record) -> AnyTaskMessage | None:
    """The record's message, if it is a point-to-point record of a named task."""
    message = record.message
    if message is None or record.group_id is not None or record.answer is not None:
        return None
    if message.task_id is None or not isinstance(message, (TaskCommand, *_REPORTS)):
        return None
    return message


def task_record(record: Record) -> AnyTaskMessage | None:
    """The record's message, if it is a point-to-point task record this path may take
    (once admitted: its sender's place in the session is known)."""
    message = _task_message(record)
    at = record.place
    if message is None or at is None or at.mode == GROUP:
        return None
    if isinstance(message, TaskCommand) and (message.parent_task_id or message.dependencies):
        return None
    return message


@dataclass
class TaskBatch:
    """The tasks a batch's taken records move, and what they will write (see the module)."""

    work: UnitOfWork
    ended: set[Key] = field(default_factory=set)  # tasks a taken record may have ended
    _tasks: dict[Key, HeldTask | None] = field(default_factory=dict)
    _blocked: set[Key] = field(default_factory=set)  # the full path's, for the batch
    _modes: dict[str, dict[str, str | None]] = field(default_factory=dict)
    _new: dict[Key, HeldTask] = field(default_factory=dict)
    _moved: dict[Key, HeldTask] = field(default_factory=dict)
    _inbox: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    _unread: list[Record] = field(default_factory=list)  # records whose tasks to read first

    def forget(self, rest: Sequence[Record]) -> None:
        """The full path wrote: read the tasks of ``rest`` again before taking any."""
        self._tasks.clear()
        self._unread = list(rest)

    async def load(self, records: Sequence[Record]) -> None:
        """Read, in one statement each, the tasks of every record this path may take, which
        of the absent ones have messages stored (the full path folds those), and the modes
        of the sessions where a task may start."""
        self._unread = []
        keys = {(m.task_id or "", r.session_id or "") for r in records if (m := _task_message(r))}
        keys -= self._tasks.keys()
        if not keys:
            return
        conn = self.work.conn
        found = {}
        params = {"ids": list({k[0] for k in keys}), "sessions": list({k[1] for k in keys})}
        for row in await rows(conn, _LOAD, params):
            values = dict(zip(_TASK_COLUMNS, row, strict=True))
            if (values["id"], values["session_id"]) in keys:
                task = HeldTask(**{c: values[c] for c in _COLUMNS})
                found[(task.id, task.session_id)] = task
        self._tasks.update(found)
        absent = keys - found.keys()
        if absent:
            params = {"tasks": [k[0] for k in absent], "sessions": [k[1] for k in absent]}
            stored = {(t or "", s) for t, s in await rows(conn, _STORED_FOR, params)}
            self._blocked |= absent & stored
            self._tasks.update(dict.fromkeys(absent - stored))
        sessions = {k[1] for k in absent} - self._modes.keys()
        if sessions:
            for session_id, agent_id, mode in await rows(
                conn, _MODES, {"sessions": list(sessions)}
            ):
                self._modes.setdefault(session_id, {})[agent_id] = mode

    async def take(self, record: Record) -> dict[str, Any] | None:
        """The record's row, with its outcome set, if this path decides it; else ``None``
        (and its task goes down the full path for the rest of the batch)."""
        found = task_record(record)
        if found is None:
            return None
        if self._unread:
            await self.load(self._unread)
        key = (found.task_id or "", record.session_id or "")
        if key in self._blocked or key not in self._tasks:
            return None
        wire = record.wire if found is record.message else None
        row = self._decide(record, as_received(found), key, wire)
        if row is None:
            self._blocked.add(key)
        return row

    def _decide(
        self, record: Record, message: AnyTaskMessage, key: Key, wire: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        """What the record does to its task, decided in memory (``wire``: the message's
        wire object as received, when the record has it): its row, or None for the full
        path."""
        at = record.place
        assert at is not None
        try:
            check_open(message, at)
        except HubError:
            return None
        task = self._tasks[key]
        new = task is None
        if task is None:
            task = self._new_task(message, key, at.session_id, at.leader_id, at.bridged)
            if task is None:
                waits = (
                    isinstance(message, TaskCommand) and message.command != TaskCommandType.START
                )
                return self._waiting(record, message, key, wire) if waits else None
        elif (
            task.group_id is not None
            or task.pending
            or role_error(task.leader_id, task.partner_id, message)
        ):
            return None
        start = isinstance(message, TaskCommand) and message.command == TaskCommandType.START
        if start and not new:
            return self._again(record, message, task, key, wire)
        sent = sort_key(message)
        if not new and task.last_key is not None and sent < task.last_key:
            return None  # sorts before what the task has: the full path folds it again
        facts = task_facts(task)
        outcome = step(facts, message)
        if outcome is Outcome.NEVER:
            return None
        told = []  # the operator's events, staged with the row (``plain.write_plain``)
        before = task.state
        # what the step did, whatever came of it (a waiting result's statusHistory: ``fold``)
        task.state = facts.state.value if facts.state else None
        task.status, task.status_history = facts.status, facts.status_history
        task.products = facts.products
        task.commanded = facts.commanded
        task.last_key = sent
        task.pending += outcome is Outcome.NOT_YET
        task.version += 1
        task.updated_at = utcnow()
        if new:
            self._new[key] = task
            told.append(("task", task_summary(task, None)))
        else:
            self._moved.setdefault(key, task)
        if task.state != before:
            told.append(("task", task_summary(task, task.state)))
        if is_final(facts.state):
            self.ended.add(key)
        wire = message.to_wire() if wire is None else wire
        moves = isinstance(message, TaskCommand) and message.command not in NO_MOVE_COMMANDS
        if moves and task.partner_id != message.sender_id:
            self._inbox.append((task.partner_id, "task", wire))
        return self._row(record, message, wire, task.id, outcome, told)

    def _new_task(
        self,
        message: AnyTaskMessage,
        key: Key,
        session_id: str,
        leader_id: str | None,
        bridged: bool,
    ) -> HeldTask | None:
        """The task this record makes, if it makes one this path can take (``bridged``: in
        a bridge session a start may name its sender as the partner)."""
        now = utcnow()
        if isinstance(message, TaskCommand):
            if message.command != TaskCommandType.START:
                return None
            try:
                partner_id = partner_of(message)
            except HubError:
                return None  # the full path refuses it
            modes = self._modes.get(session_id, {})
            if partner_id == message.sender_id and not bridged:
                return None
            if partner_id not in modes or modes[partner_id] == GROUP:
                return None
            leader = message.sender_id
        elif leader_id is not None and message.sender_id != leader_id:
            partner_id, leader = message.sender_id, leader_id
        else:
            return None
        task = HeldTask(
            id=key[0],
            session_id=session_id,
            group_id=None,
            parent_task_id=None,
            leader_id=leader,
            partner_id=partner_id,
            state=None,
            status=None,
            products=[],
            status_history=[],
            dependencies=[],
            commanded=False,
            version=0,
            last_key=None,
            pending=0,
            created_at=now,
            updated_at=now,
            released_at=None,
        )
        self._tasks[key] = task
        return task

    def _again(
        self,
        record: Record,
        message: AnyTaskMessage,
        task: HeldTask,
        key: Key,
        wire: dict[str, Any] | None,
    ) -> dict[str, Any] | None:
        """A start of a task that exists: the same move, if it is its leader's to its partner
        (the partner's report made the task first)."""
        assert isinstance(message, TaskCommand)
        try:
            partner_id = partner_of(message)
        except HubError:
            return None
        if (message.sender_id, partner_id) != (task.leader_id, task.partner_id):
            return None
        if is_final(task_state(task)):
            self.ended.add(key)
        wire = message.to_wire() if wire is None else wire
        if task.partner_id != message.sender_id:
            self._inbox.append((task.partner_id, "task", wire))
        return self._row(record, message, wire, task.id, Outcome.SAME)

    def _waiting(
        self, record: Record, message: AnyTaskMessage, key: Key, wire: dict[str, Any] | None
    ) -> dict[str, Any]:
        """A command for a task not made yet: kept, waiting for it; the task's later records
        in the batch take the full path, which folds this one in."""
        self._blocked.add(key)
        return self._row(record, message, wire, key[0], Outcome.NOT_YET)

    def _row(
        self,
        record: Record,
        message: AnyTaskMessage,
        wire: dict[str, Any] | None,
        task_id: str,
        outcome: Outcome,
        told: list[tuple[str, dict[str, Any]]] | None = None,
    ) -> dict[str, Any]:
        at = Placement(
            record.stored_session_id, record.received_at, task_id=task_id, trace=record.trace
        )
        body = stored_body(message, at, wire)
        row = stored_row(message, body, at)
        row["waiting"] = outcome is Outcome.NOT_YET
        record.outcome = (body, 202 if outcome is Outcome.NOT_YET else 201)
        record.told = [*(told or ()), ("message", message_summary(body))]
        return row

    async def flush(self) -> set[Key]:
        """Write what the taken records did to their tasks and inboxes (their rows are the
        writer's to insert): the tasks that may have ended."""
        conn = self.work.conn
        if self._new:
            new = [{c: getattr(t, c) for c in _COLUMNS} for t in self._new.values()]
            await run_many(conn, _INSERT, new)
        moved = [t for k, t in self._moved.items() if k not in self._new]
        if moved:
            params = [
                {
                    **{name: getattr(t, name) for name in _MOVED},
                    "t_id": t.id,
                    "t_session_id": t.session_id,
                }
                for t in moved
            ]
            await run_many(conn, _SAVE, params)
        await append_inbox_events(conn, self.work.outbox, self._inbox)
        ended = self.ended
        self.discard()
        return ended

    def discard(self) -> None:
        """Drop what was taken (written, or rolled back): the tasks are read again."""
        self._new, self._moved, self._inbox = {}, {}, []
        self.ended = set()
        self._tasks.clear()
        self._unread = []
