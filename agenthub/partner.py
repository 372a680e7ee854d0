"""The partner's side of a task: the handler an agent developer writes, and the task it moves.

A developer subclasses :class:`TaskHandler` and reports through :class:`TaskContext`; the kit
keeps each task's state machine, its events (for streams) and its record at the hub.

Kept whole: the handler a developer writes (``TaskHandler``), the context it reports
through (``TaskContext``) and the task they move (``PartnerTask``) are one API, read
together; the runtime that drives them is ``agenthub.runtime``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson

from agenthub.errors import ProductsTooLarge as ProductsTooLarge  # re-exported: its old home
from agenthub.errors import TaskMoveError as TaskMoveError
from agenthub.protocol.messages import (
    GetCommandParams,
    Product,
    ProductChunk,
    StartCommandParams,
    TaskCommand,
    TaskResult,
    TaskState,
    TaskStatus,
    TaskStatusUpdate,
)
from agenthub.protocol.tasks import FINAL_STATES, partner_may_report

logger = logging.getLogger(__name__)

SETTLED_STATES = FINAL_STATES | {TaskState.AWAITING_INPUT, TaskState.AWAITING_COMPLETION}
MAX_EVENTS_PER_TASK = 1000
MAX_EVENT_BYTES_PER_TASK = 8 << 20
"""What a task keeps for re-streaming, in bytes of JSON: past it the oldest events go."""
MAX_COMMANDS_PER_TASK = 200
MAX_COMMAND_BYTES_PER_TASK = 8 << 20
"""The ``commandHistory`` a task keeps (ignored commands too), in commands and bytes of
JSON: past it the oldest after the start go."""

DataItems = list[dict[str, Any]]


def _now() -> datetime:
    return datetime.now(UTC)


def text_items(text: str | None) -> DataItems | None:
    return [{"type": "text", "text": text}] if text else None


def products_bytes(products: Sequence[Product]) -> int:
    """The bytes of products' content, as acps-sdk counts them (a text's UTF-8, a file's
    inline ``bytes``), and a structured item's JSON."""
    total = 0
    for product in products:
        for item in product.data_items:
            wire = item.to_wire()
            if wire.get("type") == "text":
                total += len(str(wire.get("text", "")).encode())
            elif wire.get("type") == "file":
                total += len(str(wire.get("bytes") or ""))
            else:
                total += len(orjson.dumps(wire.get("data")))
    return total


def _newer(when: datetime, than: datetime | None) -> bool:
    return than is None or when > than


class PartnerTask:
    """One task as its partner sees it: state, products, events, history."""

    def __init__(self, command: TaskCommand, *, partner_id: str) -> None:
        assert command.task_id is not None
        self.id = command.task_id
        self.session_id = command.session_id
        self.leader_id = command.sender_id
        self.touched = 0.0  # monotonic time of the last command or event
        self.partner_id = partner_id
        self.state: TaskState | None = None
        self.status: TaskStatus | None = None
        self.products: dict[str, Product] = {}
        # both histories as each entry's JSON, with what ``get`` filters them by: a held
        # task keeps no models, dicts and lists a collection would walk
        self.status_history: list[tuple[datetime, bytes]] = []  # (stateChangedAt, JSON)
        self.command_history: list[tuple[str, datetime, bytes]] = []  # (id, sentAt, JSON)
        self.keep_command(command)
        # the events kept for streams, each as its JSON: a task held awaiting its leader
        # (the most a busy partner holds) keeps no dicts and lists a collection would walk
        self.events: list[tuple[int, bytes]] = []
        self._kept_bytes = 0  # their sizes' sum
        self.next_seq = 1
        # what streams, answers and notifications have seen: set when an event is appended,
        # once its record is queued for the hub (the hub is not waited for)
        self.published_bytes: bytes | None = None  # the latest task-result, its JSON
        self.published_state: TaskState | None = None
        self.latest_result_seq = 0
        self._waiters: list[asyncio.Future[None]] | None = None  # only while one waits
        self.runner: asyncio.Task[None] | None = None
        self.notifications: dict[str, dict[str, Any]] = {}
        params = StartCommandParams.model_validate(command.command_params or {})
        self.timeout_seconds = params.timeout / 1000 if params.timeout else None
        self.max_products_bytes = params.max_products_bytes
        self.timer: asyncio.Task[None] | None = None  # the wait for the leader timing out
        self.live: set[str] | None = None  # its leader's live tasks, left once it is final

    @property
    def settled(self) -> bool:
        """The published state awaits the leader or is final."""
        return self.published_state in SETTLED_STATES

    def _message_base(self) -> dict[str, Any]:
        return {
            "id": f"msg-{uuid.uuid4().hex}",
            "sent_at": _now(),
            "sender_role": "partner",
            "sender_id": self.partner_id,
            "session_id": self.session_id,
            "task_id": self.id,
        }

    def result_message(self) -> TaskResult:
        assert self.status is not None
        products = list(self.products.values()) or None
        return TaskResult(**self._message_base(), status=self.status, products=products)

    def snapshot(self, params: GetCommandParams | None = None) -> dict[str, Any]:
        """The full TaskResult for ``get``: status, products and both histories, of which
        only what is newer than ``params`` says (AIP §4.4 GetCommandParams)."""
        if self.published_bytes is None:
            raise TaskMoveError("the task has no state yet")
        params = params or GetCommandParams()
        return {
            **orjson.loads(self.published_bytes),
            "statusHistory": [
                orjson.Fragment(status)
                for changed_at, status in self.status_history
                if _newer(changed_at, params.last_state_changed_at)
            ],
            "commandHistory": [
                orjson.Fragment(command)
                for _, sent_at, command in self.command_history
                if _newer(sent_at, params.last_command_sent_at)
            ],
        }

    def keep_status(self, status: TaskStatus) -> None:
        self.status_history.append((status.state_changed_at, orjson.dumps(status.to_wire())))

    def keep_command(self, command: TaskCommand) -> None:
        """Add a command to the history; past its bounds the oldest after the start go."""
        self.command_history.append((command.id, command.sent_at, orjson.dumps(command.to_wire())))
        while len(self.command_history) > 2 and (
            len(self.command_history) > MAX_COMMANDS_PER_TASK
            or sum(len(c) for _, _, c in self.command_history) > MAX_COMMAND_BYTES_PER_TASK
        ):
            del self.command_history[1]

    def has_command(self, command_id: str) -> bool:
        return any(kept == command_id for kept, _, _ in self.command_history)

    def last_command(self) -> TaskCommand:
        return TaskCommand.model_validate_json(self.command_history[-1][2])

    def _append(self, event: dict[str, Any]) -> int:
        """Keep an event (its JSON), within the task's bounds, and wake whoever waits."""
        seq = self.next_seq
        self.next_seq += 1
        encoded = orjson.dumps(event)
        self.events.append((seq, encoded))
        self._kept_bytes += len(encoded)
        if event.get("type") == "task-result":
            self.latest_result_seq = seq
            self.published_bytes = encoded
            self.published_state = TaskState(event["status"]["state"])
        drop = max(0, len(self.events) - MAX_EVENTS_PER_TASK)
        self._kept_bytes -= sum(len(e) for _, e in self.events[:drop])
        while self._kept_bytes > MAX_EVENT_BYTES_PER_TASK and drop < len(self.events) - 1:
            self._kept_bytes -= len(self.events[drop][1])
            drop += 1
        del self.events[:drop]
        self.notify()
        return seq

    def notify(self) -> None:
        """Wake every :meth:`wait_for` to look again."""
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(self, ready: Callable[[], bool]) -> None:
        """Until ``ready()``, looking again at each change. (An ``asyncio.Condition`` a
        task, with its lock and deque, was six objects every held task kept.)"""
        while not ready():
            waiter = asyncio.get_running_loop().create_future()
            if self._waiters is None:
                self._waiters = []
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if self._waiters is not None and waiter in self._waiters:
                    self._waiters.remove(waiter)  # cancelled before a change woke it


Emit = Callable[[PartnerTask, dict[str, Any], bool], Awaitable[None]]


class TaskContext:
    """What a handler uses to report: every call is one AIP message, recorded at the hub."""

    def __init__(self, task: PartnerTask, command: TaskCommand, emit: Emit) -> None:
        self.task = task
        self.command = command
        self._emit = emit

    @property
    def task_id(self) -> str:
        return self.task.id

    @property
    def leader_id(self) -> str:
        return self.task.leader_id

    @property
    def session_id(self) -> str | None:
        return self.task.session_id

    @property
    def state(self) -> TaskState | None:
        return self.task.state

    @property
    def data_items(self) -> DataItems:
        return [d.to_wire() for d in self.command.data_items or []]

    @property
    def text(self) -> str:
        """The text of the command that started or continued the task."""
        return "\n".join(d["text"] for d in self.data_items if d.get("type") == "text")

    async def move(
        self,
        state: TaskState,
        *,
        data_items: DataItems | None = None,
        record: bool = True,
        commanded: bool = False,
    ) -> None:
        """Move the task; ``commanded``: the move a leader command made (complete, continue,
        cancel), which the state table gives the leader, and the partner records as its
        answer (a leader that records nothing still leaves the hub's task right)."""
        task = self.task
        if not commanded and not partner_may_report(task.state, state):
            raise TaskMoveError(f"cannot move from {task.state} to {state.value}")
        status = TaskStatus.model_validate(
            {"state": state, "stateChangedAt": _now(), "dataItems": data_items}
        )
        task.state, task.status = state, status
        task.keep_status(status)
        if state in FINAL_STATES and task.live is not None:
            task.live.discard(task.id)
            task.live = None
        await self._emit(task, task.result_message().to_wire(), record)

    async def _reach_working(self) -> None:
        if self.task.state is None:
            await self.accept()
        if self.task.state == TaskState.ACCEPTED:
            await self.move(TaskState.WORKING)

    async def accept(self, message: str | None = None) -> None:
        await self.move(TaskState.ACCEPTED, data_items=text_items(message))

    async def reject(self, reason: str) -> None:
        await self.move(TaskState.REJECTED, data_items=text_items(reason))

    async def working(self, message: str | None = None) -> None:
        if self.task.state == TaskState.WORKING:
            await self.progress(message or "working")
            return
        if self.task.state is None:
            await self.accept()
        await self.move(TaskState.WORKING, data_items=text_items(message))

    async def progress(self, message: str) -> None:
        """Progress information: a status update that keeps the state."""
        await self._reach_working()
        task = self.task
        status = TaskStatus.model_validate(
            {"state": task.state, "stateChangedAt": _now(), "dataItems": text_items(message)}
        )
        update = TaskStatusUpdate(**task._message_base(), status=status)
        await self._emit(task, update.to_wire(), True)

    async def add_product(
        self, product: Product | dict[str, Any], *, append: bool = False, last_chunk: bool = True
    ) -> None:
        await self._reach_working()
        item = product if isinstance(product, Product) else Product.model_validate(product)
        old = self.task.products.get(item.id)
        if append and old is not None:
            merged = [*old.data_items, *item.data_items]
            await self._keep({item.id: old.model_copy(update={"data_items": merged})})
        else:
            await self._keep({item.id: item})
        chunk = ProductChunk(
            **self.task._message_base(), product=item, append=append, last_chunk=last_chunk
        )
        await self._emit(self.task, chunk.to_wire(), True)

    async def _keep(self, products: dict[str, Product]) -> None:
        """Keep ``products`` with the task's; past the start's ``maxProductsBytes`` the
        task fails instead, saying why (AIP §4.4), and ``ProductsTooLarge`` ends the
        handler."""
        kept = {**self.task.products, **products}
        limit = self.task.max_products_bytes
        size = products_bytes(list(kept.values()))
        if limit is not None and size > limit:
            await self.move(
                TaskState.FAILED,
                data_items=text_items(
                    f"Products size {size} bytes exceeds maxProductsBytes={limit}."
                ),
            )
            raise ProductsTooLarge(f"the products would take {size} bytes, more than {limit}")
        self.task.products = kept

    async def await_input(self, question: str) -> None:
        await self._reach_working()
        await self.move(TaskState.AWAITING_INPUT, data_items=text_items(question))

    async def await_completion(
        self, products: Sequence[Product | dict[str, Any]] = (), message: str | None = None
    ) -> None:
        await self._reach_working()
        items = [p if isinstance(p, Product) else Product.model_validate(p) for p in products]
        await self._keep({item.id: item for item in items})
        await self.move(TaskState.AWAITING_COMPLETION, data_items=text_items(message))

    async def fail(self, reason: str) -> None:
        await self._reach_working()
        await self.move(TaskState.FAILED, data_items=text_items(reason))


class TaskHandler:
    """Subclass and override: the kit calls these as the leader's commands arrive.

    ``on_start`` must end the task's first step: accept (and work) or reject. Reporting work
    accepts implicitly. An exception fails the task with its message.
    """

    async def on_start(self, task: TaskContext) -> None:
        await task.reject("this agent does not take tasks")

    async def on_continue(self, task: TaskContext) -> None:
        """The leader answered an ``awaiting-input`` or asked for more work; state is working."""
        await task.await_completion(message="nothing more to do")

    async def on_cancel(self, task: TaskContext) -> None:
        """The task was canceled; release what it held."""

    async def on_complete(self, task: TaskContext) -> None:
        """The leader accepted the result; release what the task held."""
