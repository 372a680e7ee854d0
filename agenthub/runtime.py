"""The partner's task runtime: applies the leader's commands, runs handlers, emits events.

Kept whole: ``PartnerRuntime`` is the module, and says why it is one class.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from agenthub.errors import KitError, TaskMoveError
from agenthub.notify import NotificationSender
from agenthub.partner import PartnerTask, TaskContext, TaskHandler, text_items
from agenthub.protocol.jsonrpc import NotificationConfig, RpcErrorCode
from agenthub.protocol.messages import (
    StartCommandParams,
    TaskCommand,
    TaskCommandType,
    TaskState,
)
from agenthub.protocol.tasks import TIMEOUT_MOVES, is_final, leader_command_target
from agenthub.recorder import HubRecorder

logger = logging.getLogger(__name__)

RECORD_FLUSH_SECONDS = 2.0
RPC_WAIT_SECONDS = 30.0
MAX_TASKS = 10_000
"""Tasks a partner holds at most; past it (after dropping ended and idle ones) starts wait."""
MAX_TASKS_PER_CALLER = 1_000
"""Live (not final) tasks one leader may hold at a partner."""
IDLE_TASK_SECONDS = 3_600.0
"""A live task no one has touched this long is let go when room is needed."""
MAX_TIMEOUT_SECONDS = IDLE_TASK_SECONDS
"""The longest start ``timeout``: a wait for the leader ends before its task may be let go
(a timer kept alive past it would keep the dropped task, and its events, with it)."""
PRIVATE_CONFIG_KEYS = frozenset({"leaderId", "setAt"})
"""What a notification config keeps that its answers leave out."""
MAX_PENDING_CONFIGS_PER_CALLER = 64
PENDING_CONFIG_SECONDS = 600.0
"""Notification configs set before their task starts: how many per leader, and how long."""

Hook = Callable[[TaskContext], Awaitable[None]]


class RpcFault(KitError):
    def __init__(self, code: RpcErrorCode, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class PartnerRuntime:
    """Kept whole: starting, cancelling, time-waiting, making room and the notification configs
    all read and write the same maps of live tasks and callers, on one event loop with no lock;
    apart, each would reach into the others' maps.
    """

    def __init__(
        self,
        *,
        agent_id: str,
        handler: TaskHandler,
        recorder: HubRecorder | None,
        notifier: NotificationSender | None,
        record_flush_seconds: float = RECORD_FLUSH_SECONDS,
        rpc_wait_seconds: float = RPC_WAIT_SECONDS,
    ) -> None:
        self.agent_id = agent_id
        self.handler = handler
        self.recorder = recorder
        self.notifier = notifier
        self.record_flush_seconds = record_flush_seconds
        self.rpc_wait_seconds = rpc_wait_seconds
        # a task is its leader's: ids are the leaders' choice, so one leader's ids neither
        # collide with nor show another's
        self.tasks: dict[tuple[str, str], PartnerTask] = {}
        self.max_tasks = MAX_TASKS
        self.max_tasks_per_caller = MAX_TASKS_PER_CALLER
        self._pending_configs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        # each leader's tasks not final yet, kept as they move: a start counted them by a
        # scan of every task held (up to MAX_TASKS), 44 % of a busy partner's CPU (py-spy)
        self._live: dict[str, set[str]] = {}

    # -- events ---------------------------------------------------------------------------

    async def _emit(self, task: PartnerTask, event: dict[str, Any], record: bool) -> None:
        task.touched = time.monotonic()
        if record and self.recorder is not None and task.session_id:
            self.recorder.record(task.session_id, event)
            await self.recorder.admit(task.session_id, self.record_flush_seconds)
        task._append(event)
        if event.get("type") == "task-result":
            self._time_wait(task)
        if event.get("type") == "task-result" and self.notifier is not None:
            for config in task.notifications.values():
                states = config.get("notifyOnStates")
                if not states or event["status"]["state"] in states:
                    self.notifier.deliver(config, task.leader_id, event)

    # -- commands -------------------------------------------------------------------------

    def _context(self, task: PartnerTask, command: TaskCommand) -> TaskContext:
        return TaskContext(task, command, self._emit)

    def _run(self, task: PartnerTask, hook: Hook, ctx: TaskContext) -> None:
        async def run() -> None:
            try:
                await hook(ctx)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.exception("task %s handler failed", task.id)
                if not is_final(task.state):
                    with contextlib.suppress(TaskMoveError):
                        await ctx.fail(f"{type(exc).__name__}: {exc}")
            finally:
                if task.state is None:
                    await ctx.reject("the agent did not take the task")
                task.notify()

        runner = task.runner = asyncio.create_task(run(), name=f"task-{task.id}")
        runner.add_done_callback(lambda done: _forget_runner(task, done))

    async def apply(
        self,
        command: TaskCommand,
        *,
        caller_id: str,
        taken: Callable[[], None] | None = None,
    ) -> tuple[PartnerTask, bool]:
        """Apply the leader's command: the task, and whether the command moved it. A
        command the task's state does not allow is ignored (AIP §4.5), only kept in the
        task's ``commandHistory``. ``taken`` is called once the command is the task's
        (refused by none of the runtime's checks), before the partner records anything it
        moves: the A2A bridge records the command there, ahead of the moves it makes."""
        if command.sender_id != caller_id:
            raise RpcFault(
                RpcErrorCode.AUTHORIZATION_FAILED,
                "The command's senderId is not the authenticated caller.",
            )
        if command.command == TaskCommandType.START:
            return self._start(command, caller_id, taken)
        task = self.task_of(caller_id, command.task_id)
        if task is None:
            raise RpcFault(
                RpcErrorCode.TASK_NOT_FOUND, "Task not found", {"taskId": command.task_id}
            )
        task.touched = time.monotonic()
        if command.command in (TaskCommandType.GET, TaskCommandType.RE_STREAM):
            return task, False
        if task.state is None:  # the handler is still deciding: a start goes to its first state
            await self.settle(task, first_state_only=True)
        task.keep_command(command)
        if taken is not None:
            taken()
        if leader_command_target(task.state, command.command) is None:
            return task, False
        ctx = self._context(task, command)
        if command.command == TaskCommandType.CANCEL:
            return task, await self._cancel(task, ctx)
        if command.command == TaskCommandType.COMPLETE:
            await ctx.move(TaskState.COMPLETED, commanded=True)
            self._run(task, self.handler.on_complete, ctx)
        elif command.command == TaskCommandType.CONTINUE:
            await ctx.move(TaskState.WORKING, data_items=ctx.data_items or None, commanded=True)
            self._run(task, self.handler.on_continue, ctx)
        return task, True

    def task_of(self, leader_id: str, task_id: str | None) -> PartnerTask | None:
        return self.tasks.get((leader_id, task_id or ""))

    def _start(
        self, command: TaskCommand, caller_id: str, taken: Callable[[], None] | None
    ) -> tuple[PartnerTask, bool]:
        if command.task_id is None:
            command = command.model_copy(update={"task_id": f"task-{uuid.uuid4().hex}"})
        assert command.task_id is not None
        existing = self.task_of(caller_id, command.task_id)
        if existing is not None:  # a start again: ignored (AIP §4.5), a retry not kept twice
            if not existing.has_command(command.id):
                existing.keep_command(command)
            if taken is not None:
                taken()
            return existing, False
        _check_timeout(command)
        # only the task's own leader's configs: a stranger's, set in advance, never attach
        key = (caller_id, command.task_id)
        chosen, states = _notify_params(command, self._pending_configs.get(key, {}))
        self._make_room(caller_id)
        task = PartnerTask(command, partner_id=self.agent_id)
        task.touched = time.monotonic()
        task.notifications = self._pending_configs.pop(key, {})
        if chosen is not None and states:
            task.notifications[chosen]["notifyOnStates"] = states
        self.tasks[(caller_id, task.id)] = task
        live = self._live.setdefault(caller_id, set())
        live.add(task.id)
        task.live = live
        if taken is not None:
            taken()
        self._run(task, self.handler.on_start, self._context(task, command))
        return task, True

    async def _cancel(self, task: PartnerTask, ctx: TaskContext) -> bool:
        """Stop the handler (and one a ``continue`` started meanwhile), then cancel, unless
        the task moved on meanwhile (its timeout fired, the handler ended it): then the
        cancel is ignored, as it came too late."""
        while task.runner is not None and not task.runner.done():
            await _stop(task.runner)
            if leader_command_target(task.state, TaskCommandType.CANCEL) is None:
                return False
        await ctx.move(TaskState.CANCELED, data_items=ctx.data_items or None, commanded=True)
        self._run(task, self.handler.on_cancel, ctx)
        return True

    def _time_wait(self, task: PartnerTask) -> None:
        """A task that now waits for its leader, with a start ``timeout``: when the wait
        times out, the partner moves it on (AIP §4.5 rows 11 and 15)."""
        if task.timer is not None and task.timer is not asyncio.current_task():
            task.timer.cancel()
        task.timer = None
        if task.timeout_seconds is None or task.state not in TIMEOUT_MOVES:
            return
        status, seconds = task.status, task.timeout_seconds

        def waiting() -> bool:
            return task.status is status and task.state in TIMEOUT_MOVES

        async def time_out() -> None:
            await asyncio.sleep(seconds)
            if not waiting():
                return  # the leader answered first
            await _stop(task.runner)  # what the handler still does for this step stops
            if not waiting():
                return  # a leader's command (or the handler) moved it meanwhile
            assert task.state is not None
            end = TIMEOUT_MOVES[task.state]
            timed_out = f"The wait for the leader timed out after {seconds:g} s."
            ctx = self._context(task, task.last_command())
            await ctx.move(end, data_items=text_items(timed_out))
            hook = self.handler.on_cancel if end == TaskState.CANCELED else self.handler.on_complete
            self._run(task, hook, ctx)

        task.timer = asyncio.create_task(time_out(), name=f"task-{task.id}-timeout")

    def _make_room(self, caller_id: str) -> None:
        """Refuse a start that would take the partner past its limits (an AIP error, which
        the leader may retry later), after letting go of ended and long-idle tasks; when it
        is full even so, a leader holding fewer tasks than the one holding the most takes
        the room of that one's least recently touched task (each leader's fair share: a few
        leaders cannot fill the partner for everyone else)."""
        if len(self.tasks) >= self.max_tasks:
            self._forget_finished()
        if len(self.tasks) >= self.max_tasks and not self._take_from_the_largest(caller_id):
            held = len(self._live.get(caller_id, ()))
            why = (
                f"you hold {held} of them, as many as any leader here; end some first"
                if held
                else "start this one later"
            )
            raise RpcFault(
                RpcErrorCode.UNSUPPORTED_OPERATION,
                f"The partner holds {self.max_tasks} tasks, its most, and {why}.",
                {"limit": self.max_tasks, "held": held},
            )
        live = len(self._live.get(caller_id, ()))
        if live >= self.max_tasks_per_caller:
            raise RpcFault(
                RpcErrorCode.UNSUPPORTED_OPERATION,
                f"You have {live} live tasks here, the most one leader may; end some first.",
                {"limit": self.max_tasks_per_caller},
            )

    def _take_from_the_largest(self, caller_id: str) -> bool:
        """Let go of the least recently touched task of the leader holding the most live
        tasks, when it holds at least two more than ``caller_id``: whether room was made."""
        held = len(self._live.get(caller_id, ()))
        largest, ids = max(self._live.items(), key=lambda item: len(item[1]), default=("", set()))
        if largest == caller_id or len(ids) < held + 2:
            return False
        stalest = min((self.tasks[(largest, i)] for i in ids), key=lambda t: t.touched)
        logger.info(
            "the partner is full: let go of task %s of %s (it holds %d, the most) for %s",
            stalest.id,
            largest,
            len(ids),
            caller_id,
        )
        self._let_go_of(stalest)
        return True

    def _forget_finished(self) -> None:
        idle_since = time.monotonic() - IDLE_TASK_SECONDS
        for task in list(self.tasks.values()):
            if is_final(task.state) or task.touched < idle_since:
                self._let_go_of(task)

    def _let_go_of(self, task: PartnerTask) -> None:
        task.live = None  # let go: a move its stopped handler makes counts no more
        _let_go(task)
        del self.tasks[(task.leader_id, task.id)]
        live = self._live.get(task.leader_id)
        if live is not None:
            live.discard(task.id)
            if not live:
                del self._live[task.leader_id]

    async def aclose(self) -> None:
        """At shutdown: stop every task's handler and timer."""
        running = [t for task in self.tasks.values() for t in _let_go(task)]
        if running:
            await asyncio.wait(running)

    # -- waiting and streaming ------------------------------------------------------------

    async def settle(self, task: PartnerTask, *, first_state_only: bool = False) -> None:
        """Wait until the task awaits the leader or ended (or only has a first state)."""

        def ready() -> bool:
            runner_done = task.runner is None or task.runner.done()
            if first_state_only:
                return task.published_state is not None or runner_done
            return task.settled or (runner_done and task.published_state is not None)

        seconds = min(self.rpc_wait_seconds, task.timeout_seconds or self.rpc_wait_seconds)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):  # not wait_for: 3.11's loses cancels
                await task.wait_for(ready)

    # -- notification configs -------------------------------------------------------------

    def set_notification(self, config: NotificationConfig, *, caller_id: str) -> dict[str, Any]:
        task = self.task_of(caller_id, config.task_id)
        stored = {
            **config.to_wire(),
            "id": config.id or f"ncfg-{uuid.uuid4().hex}",
            "leaderId": caller_id,
            "setAt": time.monotonic(),
        }
        if task is None:
            self._bound_pending(caller_id)
            target = self._pending_configs.setdefault((caller_id, config.task_id), {})
        else:
            target = task.notifications
        target[stored["id"]] = stored
        return {k: v for k, v in stored.items() if k not in PRIVATE_CONFIG_KEYS}

    def _bound_pending(self, caller_id: str) -> None:
        """Configs for tasks not started yet expire, and one leader may hold only so many."""
        oldest = time.monotonic() - PENDING_CONFIG_SECONDS
        for key, configs in list(self._pending_configs.items()):
            for config_id in [k for k, c in configs.items() if c["setAt"] < oldest]:
                del configs[config_id]
            if not configs:
                del self._pending_configs[key]
        mine = sum(
            len(configs)
            for (leader, _), configs in self._pending_configs.items()
            if leader == caller_id
        )
        if mine >= MAX_PENDING_CONFIGS_PER_CALLER:
            raise RpcFault(
                RpcErrorCode.INVALID_PARAMS,
                f"You have {mine} notification configs for tasks not started yet, the most.",
                {"limit": MAX_PENDING_CONFIGS_PER_CALLER},
            )

    def notification_configs(self, task_id: str, *, caller_id: str) -> dict[str, dict[str, Any]]:
        task = self.task_of(caller_id, task_id)
        if task is not None:
            return task.notifications
        return self._pending_configs.get((caller_id, task_id), {})


def _forget_runner(task: PartnerTask, done: asyncio.Task[None]) -> None:
    """A finished runner holds its coroutine, frame and context: a task held awaiting its
    leader (the most a busy partner holds) would keep them for as long as it is held, and
    every full collection would walk them."""
    if task.runner is done:
        task.runner = None


async def _stop(runner: asyncio.Task[None] | None) -> None:
    """Cancel a handler's runner and wait until it stopped; the caller's own cancellation
    (a timer the leader's answer made moot) still reaches the caller."""
    if runner is not None and not runner.done():
        runner.cancel()
        await asyncio.wait({runner})


def _let_go(task: PartnerTask) -> list[asyncio.Task[None]]:
    """Cancel what still runs for a task (its handler, its timeout timer); those."""
    running = [t for t in (task.runner, task.timer) if t is not None and not t.done()]
    for t in running:
        t.cancel()
    return running


def _check_timeout(command: TaskCommand) -> None:
    """A start's params are its task's (-32602 when bad); its ``timeout`` at most
    ``MAX_TIMEOUT_SECONDS``."""
    timeout = StartCommandParams.model_validate(command.command_params or {}).timeout
    if timeout is not None and timeout > MAX_TIMEOUT_SECONDS * 1000:
        raise RpcFault(
            RpcErrorCode.INVALID_PARAMS,
            f"timeout is at most {MAX_TIMEOUT_SECONDS * 1000:.0f} ms.",
            {"limit": int(MAX_TIMEOUT_SECONDS * 1000)},
        )


def _notify_params(
    command: TaskCommand, configs: dict[str, dict[str, Any]]
) -> tuple[str | None, list[str]]:
    """The start's ``notificationConfigId`` (one of the task's configs) and
    ``notifyOnStates`` (task states; none: every state), checked before anything is taken."""
    params = command.command_params or {}
    config_id, states = params.get("notificationConfigId"), params.get("notifyOnStates")
    if config_id is not None and (not isinstance(config_id, str) or config_id not in configs):
        raise RpcFault(RpcErrorCode.INVALID_PARAMS, "Unknown notificationConfigId.")
    if states is None:
        return config_id, []
    valid = {s.value for s in TaskState}
    if not isinstance(states, list) or not all(isinstance(s, str) and s in valid for s in states):
        raise RpcFault(
            RpcErrorCode.INVALID_PARAMS,
            "notifyOnStates must be a list of task states.",
            {"states": sorted(valid)},
        )
    return config_id, list(dict.fromkeys(states))
