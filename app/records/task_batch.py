"""A batch's point-to-point task records, folded in memory (the record engine's fast path).

The writer (``records.ingest``) offers each admitted point-to-point task record here before
its full path. Each is decided by the task rule (``app.tasks.decide``) from the task as the
batch holds it; a record it answers with a move is *taken*, and costs no statement of its
own: its row goes into the writer's one INSERT, and ``flush`` writes what
the batch's taken records did to their tasks with a few statements for the whole batch (one
INSERT of the tasks they made, one UPDATE run for all the tasks they moved, the leaders'
commands into their partners' inboxes by ``append_inbox_events``).

Every task is read once a batch, in one SELECT (``load``), locked on PostgreSQL; SQLite's
writer holds the write lock from its first read. A record the rule refuses, or cannot decide
without reads this path does not make (the stored messages of a task with waiting messages,
or of one a record sorts before; the tasks a start names as parent or dependencies), a
group-mode sender's, an id used before, or one of a task whose messages were stored before
it exists, goes down the full path, which asks the same rule and answers as its route
documents; the tasks held here are then read again (``forget``).

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

from agenthub.protocol.messages import ProductChunk, TaskCommand, TaskResult, TaskStatusUpdate
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
from app.tasks.decide import NOTHING_STORED, NewTask, TaskMove, TaskPlace, decide
from app.tasks.models import Task
from app.tasks.projection import AnyTaskMessage, Outcome
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
    return message


@dataclass
class TaskBatch:
    """The tasks a batch's taken records move, and what they will write (see the module)."""

    work: UnitOfWork
    ended: set[Key] = field(default_factory=set)  # tasks a taken record may have ended
    _tasks: dict[Key, HeldTask | None] = field(default_factory=dict)
    _blocked: set[Key] = field(default_factory=set)  # the full path's, for the batch
    _partners: dict[str, set[str]] = field(default_factory=dict)  # by session: who may be one
    _places: dict[str, TaskPlace] = field(default_factory=dict)  # by session, for ``decide``
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
        sessions = {k[1] for k in absent} - self._partners.keys()
        if sessions:
            for session_id, agent_id, mode in await rows(
                conn, _MODES, {"sessions": list(sessions)}
            ):
                partners = self._partners.setdefault(session_id, set())
                if mode != GROUP:  # a receiver in group mode only is no p2p task's partner
                    partners.add(agent_id)
            for session_id in sessions:
                self._places.pop(session_id, None)  # made before its partners were read

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
        """What the record does to its task, as ``app.tasks.decide`` decides it from the task
        as the batch holds it (``wire``: the message's wire object as received, when the
        record has it): its row, or None for the full path (a refusal, which the full path
        makes as its route documents it, or a decision that needs reads this path does not
        make)."""
        at = record.place
        assert at is not None
        try:
            check_open(message, at)
        except HubError:
            return None
        held = self._tasks[key]
        place = self._places.get(at.session_id)
        if place is None:
            partners = self._partners.get(at.session_id, set())
            place = TaskPlace(at.session_id, None, partners, at.leader_id, at.bridged)
            self._places[at.session_id] = place
        stored = NOTHING_STORED if held is None else None  # ``load`` found none stored for it
        move = decide(held, message, place, task_id=key[0], stored=stored)
        if not isinstance(move, TaskMove):
            return None
        told = []  # the operator's events, staged with the row (``plain.write_plain``)
        task = held
        if move.new is not None:
            task = self._new_task(key, at.session_id, move.new)
            told.append(("task", task_summary(task, None)))
        if task is None:  # it waits for its task: the task's later records in the batch take
            self._blocked.add(key)  # the full path, which folds this one in
            return self._row(record, message, wire, key[0], move.outcome)
        before = task.state
        if move.values:
            for name, value in move.values.items():
                setattr(task, name, value)
            task.version += 1
            task.updated_at = utcnow()
            if move.new is None:
                self._moved.setdefault(key, task)
        if task.state != before:
            told.append(("task", task_summary(task, task.state)))
        if move.final:
            self.ended.add(key)
        if move.inbox is not None:
            wire = message.to_wire() if wire is None else wire
            self._inbox.append((move.inbox, "task", wire))
        return self._row(record, message, wire, key[0], move.outcome, told)

    def _new_task(self, key: Key, session_id: str, new: NewTask) -> HeldTask:
        """The task a record makes, held until ``flush`` inserts it."""
        now = utcnow()
        task = HeldTask(
            id=key[0],
            session_id=session_id,
            group_id=None,
            parent_task_id=new.parent_task_id,
            leader_id=new.leader_id,
            partner_id=new.partner_id,
            state=None,
            status=None,
            products=[],
            status_history=[],
            dependencies=list(new.dependencies),
            commanded=False,
            version=0,
            last_key=None,
            pending=0,
            created_at=now,
            updated_at=now,
            released_at=None,
        )
        self._tasks[key] = self._new[key] = task
        return task

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
