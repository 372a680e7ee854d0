"""The write pipeline: every message recorded at the hub goes in through here.

A group post, a point-to-point record (one, or a batch of them) and a relayed answer are
each a ``Record``. The routes hand their records to the process's ``Ingest`` and wait; one
writer task takes every record waiting, in arrival order, and writes them in one
transaction (group commit):

1. **Standing**, for the whole batch: the senders (still registered, with the key their
   token is bound to) and which of the message ids they used before, in one SELECT; their
   memberships of the groups posted to, in one; their places in the sessions recorded to,
   in one.
2. **Admission**, pure (``Record.verdict``): a record is refused there with the answer its
   route documents, or found *plain* (a row, and nothing else: no task, no mention, no
   speak grant, no replay), or sent down the full path.
3. **Plain records** in bulk: per group, one ``UPDATE … RETURNING`` takes the seqs; one
   multi-row INSERT stores them.
4. **Point-to-point task records folded in memory** (``task_batch``): the batch's tasks read
   in one SELECT, each record stepped with the pure task fold, their rows written with the
   plain ones and their tasks and inboxes with a few statements for the whole batch.
5. **Full path**, for the rest, one record at a time, each in its own SAVEPOINT, with the
   service that knows its kind (``group_posts.write_group_message``,
   ``messages.write_session_message``, ``answers.write_answer``): a refusal, a task that
   moved under it, or an id taken at the same time rolls back that record alone.
6. **One COMMIT** (``UnitOfWork.commit``, the batch's one); then what the batch staged in
   its outbox (group frames, inbox and operator events) is handed to the broker
   (``UnitOfWork.publish``), in the order written, and the callers are answered: first the
   answers when nothing more is to happen, so the callers hear back while the streams
   write; else, first the frames and the triggers the batch's task moves may have made
   ready (looked up in one query, one transaction each), so a caller that ended a task
   reads what that fired.

A batch is one ``UnitOfWork`` (``core.unit_of_work``): a connection of its own whose
transaction the writer begins and commits; the full path's services get an ORM session on
that connection only when a record of the batch takes it.

Plain and in-memory records are flushed (one savepoint) before every full-path record, so
a batch's rows keep their order. On SQLite the transaction starts ``BEGIN IMMEDIATE``: the
writer holds the write lock from its first read, so what it read is what it writes against,
and the flush needs no savepoint there.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.agents.last_seen import LAST_SEEN_WRITE_INTERVAL_SECONDS, note_seen
from app.broker import Broker
from app.core.unit_of_work import TaskKey, UnitOfWork, WriterConnection
from app.db import SessionFactory
from app.errors import HubError
from app.records.plain import write_plain
from app.records.record import Outcome, Path, Record, Standing
from app.records.stored import encodable, received_wire
from app.records.task_batch import TaskBatch
from app.sessions.bridges import BridgeOpen, open_bridges
from app.stopping import stop
from app.tasks.errors import TaskBusy
from app.tasks.store import StaleTask

logger = logging.getLogger(__name__)

MAX_BATCH = 256
GATHER_TURNS = 6  # loop turns the writer lets pass before a batch (``Ingest._gather``)
GATHER_SECONDS = 0.002  # and at most this long
MAX_NOTED = 10_000  # senders whose last note this writer remembers
MAX_MOVE_ATTEMPTS = 5  # a record whose task keeps moving under it: refused as task-busy


@dataclass(eq=False)
class _Submission:
    records: list[Record]
    opens: list[BridgeOpen]  # the bridge sessions to open first, unless they are there
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Ingest:
    """The process's one writer of messages (see the module's docstring)."""

    def __init__(
        self,
        factory: SessionFactory,
        *,
        broker: Broker | None = None,
        max_batch: int = MAX_BATCH,
        on_written: Callable[[list[Record]], None] | None = None,
        on_ended: Callable[[set[TaskKey]], Awaitable[object]] | None = None,
    ) -> None:
        self.factory = factory
        self.engine: AsyncEngine = factory.kw["bind"]
        self.broker = broker
        self.max_batch = max_batch
        self.on_written = on_written  # what a batch recorded (the metrics' tallies)
        self.on_ended = on_ended  # the tasks a batch's moves may have ended (their triggers)
        self._queue: list[_Submission] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.written = 0
        self._noted: dict[str, float] = {}  # sender → when this writer last noted it seen
        self._conn = WriterConnection(self.engine)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="ingest")

    async def close(self) -> None:
        await stop(self._task)
        await self._conn.close()
        for submission in self._queue:  # nothing was written for these
            if not submission.done.done():
                submission.done.set_exception(RuntimeError("The hub is stopping."))
        self._queue.clear()

    async def one(self, record: Record) -> Outcome:
        """Record one message: its outcome, or its refusal raised."""
        (outcome,) = await self.many([record])
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def many(
        self, records: list[Record], opens: list[BridgeOpen] | None = None
    ) -> list[Outcome | HubError]:
        """Record the messages in order, each on its own: each one's outcome or refusal;
        ``opens``: the bridge sessions to open first, in the same transaction
        (``app.sessions.bridges``). A store failure is raised for all of them."""
        for record in records:
            if record.message is not None:  # a body that cannot be stored is refused here
                try:
                    record.wire = received_wire(encodable(record.message.to_wire()))
                except HubError as refused:
                    record.error = refused
        if self._task is None or self._task.done():
            raise RuntimeError("The hub's writer is not running.")
        submission = _Submission(records, opens or [])
        self._queue.append(submission)
        self._wake.set()
        await asyncio.shield(submission.done)
        outcomes: list[Outcome | HubError] = []
        for record in records:
            if isinstance(record.error, HubError):
                outcomes.append(record.error)
            elif record.error is not None:
                raise record.error
            else:
                assert record.outcome is not None
                outcomes.append(record.outcome)
        return outcomes

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._gather()
            while self._queue:
                taken, size = 0, 0
                while taken < len(self._queue) and size < self.max_batch:
                    size += len(self._queue[taken].records)
                    taken += 1
                submissions = self._queue[:taken]
                del self._queue[:taken]
                await self._write(submissions)

    async def _gather(self) -> None:
        """A few turns of the event loop before a batch is written (``GATHER_TURNS``; no
        more once a turn ends past ``GATHER_SECONDS``, though one turn of a large fan-out
        may itself take longer): the requests read meanwhile reach the writer too and share
        the batch's transaction, whose BEGIN, standing and COMMIT cost about as much as its
        records. A request's way from its bytes to the writer takes two turns (the parser's
        callback, then its task), so one turn caught only those read before the first;
        the streams' writes of the last batch run in these turns too. On an idle loop a
        turn is a few microseconds."""
        deadline = time.perf_counter() + GATHER_SECONDS
        for _ in range(GATHER_TURNS):
            await asyncio.sleep(0)
            if time.perf_counter() >= deadline:
                return

    async def _write(self, submissions: list[_Submission]) -> None:
        batch = [r for s in submissions for r in s.records if r.error is None]
        opens = [o for s in submissions for o in s.opens]
        work: UnitOfWork | None = None
        try:
            if batch:
                try:
                    work = await self._commit(batch, opens, guarded=False)
                except IntegrityError:  # an unguarded flush met one after all: again, guarded
                    for record in batch:
                        record.reset()
                    work = await self._commit(batch, opens, guarded=True)
                self.batches += 1
                written = [r for r in batch if r.outcome is not None]
                self.written += len(written)
                if self.on_written is not None:
                    self.on_written(written)
        except Exception as exc:  # the store failed: every record in it fails the same way
            logger.warning("a batch of %d messages failed: %s", len(batch), exc)
            for record in batch:
                record.outcome, record.error = None, exc
        if work is not None and work.ended:
            # a caller whose record may have ended a task hears back once the triggers that
            # made ready have fired: what it reads next shows them
            work.publish()
            await self._fire_ready(work.ended)
        # The callers' answers, then what the batch staged (nothing left if published above):
        # both only schedule, so the answers' handlers run first and the callers hear back while the
        # streams write the batch's frames (at N = 10 members ten frames a post; writing
        # them before the answers held every publisher through them).
        for submission in submissions:
            if not submission.done.done():
                submission.done.set_result(None)
        if work is not None:
            work.publish()

    async def _commit(
        self, batch: list[Record], opens: list[BridgeOpen], *, guarded: bool
    ) -> UnitOfWork:
        """Write the batch in one transaction, committed: its unit of work, whose outbox is
        to publish. ``guarded``: flush in savepoints even on SQLite (see ``_flush``)."""
        async with self._conn.connection() as conn, UnitOfWork.begin(conn, self.broker) as work:
            guarded = guarded or not work.locked
            refused = await open_bridges(work, opens)
            for record in batch:  # of a session its leader could not open: refused as it was
                why = refused.get((record.session_id or "", record.sender_id))
                if why is not None:
                    record.error = why
            batch = [r for r in batch if r.error is None]
            standing = await Standing.read(work.conn, batch)
            tasks = TaskBatch(work)
            tasks.forget(batch)  # read on the first task record offered
            plain: list[Record] = []
            for n, record in enumerate(batch):
                verdict = record.verdict(standing)
                used = standing.use(record)
                if isinstance(verdict, HubError):
                    record.error = verdict
                elif verdict is Path.PLAIN:
                    plain.append(record)
                elif not used and (row := await tasks.take(record)) is not None:
                    record.row = row  # decided in memory: written with the plain rows
                    plain.append(record)
                else:
                    await self._flush(work, plain, tasks, guarded)
                    await self._full(work, record, fresh=not used)
                    tasks.forget(batch[n + 1 :])
                    standing.stored(record)
            await self._flush(work, plain, tasks, guarded)
            due = self._seen_due({r.sender_id for r in batch if r.outcome})
            await note_seen(work.conn, due)
            await work.commit()
        return work

    def _seen_due(self, senders: set[str]) -> list[str]:
        """The senders whose ``last_seen_at`` this writer has not written for half the
        interval ``note_seen`` keeps (a row is written at most that often anyway): most
        batches then skip the statement, and a sender's time is never more than one and a
        half intervals old."""
        now = time.monotonic()
        half = LAST_SEEN_WRITE_INTERVAL_SECONDS / 2
        due = [s for s in senders if now - self._noted.get(s, -half) >= half]
        if len(self._noted) > MAX_NOTED:
            self._noted.clear()
        self._noted.update(dict.fromkeys(due, now))
        return due

    async def _flush(
        self, work: UnitOfWork, plain: list[Record], tasks: TaskBatch, guarded: bool
    ) -> None:
        """Write the plain records waiting and the task records taken in memory, in one
        savepoint; any id or task taken meanwhile (by another replica) sends them down the
        full path instead.

        On SQLite, unless ``guarded``, without the savepoint (two of a plain batch's eight
        statements): the batch holds the write lock from its first read (``BEGIN
        IMMEDIATE``), so nothing else can take an id or a task between its read and its
        flush, and what the batch's own full-path records stored is marked used
        (``Standing.stored``). Should a constraint refuse the flush all the same, the whole
        batch is written again, guarded (``_write``)."""
        if not plain:
            return
        records = plain[:]
        plain.clear()
        if not guarded:
            work.ended |= await tasks.flush()
            await write_plain(work, records)
            work.forget_tasks()
            return
        mark = work.outbox.mark()
        try:
            async with work.conn.begin_nested():
                ended = await tasks.flush()
                await write_plain(work, records)
            work.ended |= ended
            work.forget_tasks()
        except IntegrityError:
            work.outbox.undo(mark)
            tasks.discard()
            work.forget_tasks()
            for record in records:  # a refusal made in the savepoint went with it
                record.outcome, record.error, record.row, record.told = None, None, None, []
                await self._full(work, record, fresh=False)

    async def _full(self, work: UnitOfWork, record: Record, *, fresh: bool) -> None:
        db = await work.session()
        for attempt in range(MAX_MOVE_ATTEMPTS):
            mark, ended = work.outbox.mark(), set(work.ended)
            try:
                async with db.begin_nested():
                    record.outcome = await record.write(db, fresh=fresh and attempt == 0)
                return
            except (StaleTask, IntegrityError):  # moved, or taken, meanwhile: again
                pass  # (a retry's own lookup replays an id stored meanwhile)
            except HubError as refused:
                record.error = refused
                return
            finally:
                if record.outcome is None:
                    work.outbox.undo(mark)
                    work.ended.intersection_update(ended)
                    work.forget_tasks()  # as rolled back: read them again
        record.error = TaskBusy("The task kept changing under this message; send it again.")

    async def _fire_ready(self, tasks: set[TaskKey]) -> None:
        """Hand the tasks the committed moves may have ended to ``on_ended``, which fires
        the triggers they made ready (``triggers.service.fire_ready_triggers``, given by
        ``app.main``: one transaction a trigger, so a task with many triggers stalls no batch
        for long). Should this fail, or the process stop in between, the trigger loop's sweep
        fires them (``fire_ready_sweep``); the batch itself is committed and answered either
        way."""
        if not tasks or self.on_ended is None:
            return
        try:
            await self.on_ended(tasks)
        except Exception:
            logger.exception("firing the triggers of %d tasks failed; the sweep will", len(tasks))
