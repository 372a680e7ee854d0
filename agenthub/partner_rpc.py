"""What a partner answers to each JSON-RPC method of AIP direct mode (AIP 6.1-6.3): the
``result`` of ``rpc``, ``notification/*``, and the events of a ``stream``. Authentication,
framing (parse errors, batches, requests without ``id``) and signing are the endpoint's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson

from agenthub.callbacks import CallbackPolicy, pin_callback
from agenthub.partner import PartnerTask
from agenthub.protocol.jsonrpc import (
    NotificationConfig,
    NotificationQuery,
    RpcErrorCode,
    RpcRequest,
    rpc_error,
    rpc_result,
)
from agenthub.protocol.messages import GetCommandParams, TaskCommand, TaskCommandType
from agenthub.runtime import PRIVATE_CONFIG_KEYS, PartnerRuntime, RpcFault
from agenthub.task_events import EventsExpired, check_resume, task_events

Event = tuple[int, bytes]  # an event's seq and its JSON
AIP_METHODS = frozenset(
    {
        "rpc",
        "stream",
        "notification/start",
        "notification/set",
        "notification/get",
        "notification/delete",
    }
)
"""The JSON-RPC methods of AIP direct mode a partner answers."""


@dataclass
class StreamOpening:
    """A stream's first data (what its signature covers: the first event, an error the
    stream carries as its one event, or nothing yet) and what follows it."""

    first: bytes
    first_seq: int | None  # the first event's eventSeq (None: no event)
    rest: AsyncIterator[tuple[int, bytes] | None]  # each next (eventSeq, data); None: ping


class PartnerMethods:
    def __init__(self, runtime: PartnerRuntime | None, callbacks: CallbackPolicy) -> None:
        self.runtime = runtime
        self.callbacks = callbacks

    def need_runtime(self) -> PartnerRuntime:
        if self.runtime is None:
            raise RpcFault(RpcErrorCode.UNSUPPORTED_OPERATION, "This agent takes no tasks.")
        return self.runtime

    async def result(self, rpc: RpcRequest, caller_id: str) -> Any:
        """The ``result`` of a request that is not a stream."""
        params = rpc.params or {}
        if rpc.method in ("notification/set", "notification/get", "notification/delete"):
            return await self._notification(rpc, caller_id)
        runtime = self.need_runtime()
        if rpc.method == "rpc":
            return await self._command(TaskCommand.model_validate(params.get("command")), caller_id)
        if rpc.method == "notification/start":
            # AIP 6.3.4: params.message, as a stream's; params.command, as earlier kits sent
            wire = params["message"] if "message" in params else params.get("command")
            command = TaskCommand.model_validate(wire)
            if command.command != TaskCommandType.START or "notificationConfigId" not in (
                command.command_params or {}
            ):
                raise RpcFault(
                    RpcErrorCode.INVALID_PARAMS,
                    "notification/start takes a start command with a notificationConfigId.",
                )
            return await self._command(command, caller_id)
        if rpc.method == "stream":
            command = TaskCommand.model_validate(params.get("message"))
            await runtime.apply(command, caller_id=caller_id)  # a notification: no stream
            return None
        raise RpcFault(RpcErrorCode.METHOD_NOT_FOUND, f"Method {rpc.method!r} not found.")

    async def _command(self, command: TaskCommand, caller_id: str) -> Any:
        runtime = self.need_runtime()
        task, moved = await runtime.apply(command, caller_id=caller_id)
        if command.command == TaskCommandType.GET:
            params = GetCommandParams.model_validate(command.command_params or {})
            return task.snapshot(params)
        if moved:
            notified = "notificationConfigId" in (command.command_params or {})
            await runtime.settle(task, first_state_only=notified)
        elif task.published_bytes is None:  # a start retried before the handler took it
            await runtime.settle(task, first_state_only=True)
        if task.published_bytes is None:
            raise RpcFault(
                RpcErrorCode.UNSUPPORTED_OPERATION,
                "The task has no state yet; ask again later.",
                {"taskId": task.id},
            )
        return orjson.Fragment(task.published_bytes)  # its JSON as kept, not decoded again

    async def _notification(self, rpc: RpcRequest, caller_id: str) -> Any:
        runtime = self.need_runtime()
        params = rpc.params or {}
        if rpc.method == "notification/set":
            config = NotificationConfig.model_validate(params)
            try:
                await pin_callback(config.url, self.callbacks)
            except Exception as exc:
                raise RpcFault(RpcErrorCode.INVALID_PARAMS, str(exc)) from exc
            return runtime.set_notification(config, caller_id=caller_id)
        query = NotificationQuery.model_validate(params)
        configs = runtime.notification_configs(query.task_id, caller_id=caller_id)
        wanted = query.notification_config_id
        if wanted is not None and wanted not in configs:
            raise RpcFault(RpcErrorCode.INVALID_PARAMS, "Unknown notificationConfigId.")
        chosen = [i for i in configs if wanted in (None, i)]
        if rpc.method == "notification/get":  # AIP 6.3.3: a list, of one if an id was named
            return [
                {k: v for k, v in configs[i].items() if k not in PRIVATE_CONFIG_KEYS}
                for i in chosen
            ]
        for config_id in chosen:
            del configs[config_id]
        return {"success": True}  # AIP 6.3.2

    async def stream(self, rpc: RpcRequest, caller_id: str) -> StreamOpening:
        """Apply the stream's command and open its events: from the start for a new task,
        after the command for one known, after ``lastEventSeq`` for ``re-stream``. A
        command the task ignored opens with the task's current result (and, on a task that
        ended, only that), as ``rpc`` answers it."""
        runtime = self.need_runtime()
        params = rpc.params or {}
        command = TaskCommand.model_validate(params.get("message"))
        if command.command == TaskCommandType.RE_STREAM:
            task, _ = await runtime.apply(command, caller_id=caller_id)
            after = (command.command_params or {}).get("lastEventSeq") or 0
            if not isinstance(after, int) or isinstance(after, bool) or after < 0:
                raise RpcFault(RpcErrorCode.INVALID_PARAMS, "lastEventSeq must be an integer.")
            fresh = False
        else:
            known = runtime.task_of(caller_id, command.task_id)
            after = known.next_seq - 1 if known is not None else 0
            task, moved = await runtime.apply(command, caller_id=caller_id)
            if command.command == TaskCommandType.START and known is None:
                after = 0
            fresh = moved
        try:
            check_resume(task, after)
        except EventsExpired as expired:  # AIP 6.2.2: the error is the stream's one event

            async def nothing() -> AsyncIterator[tuple[int, bytes] | None]:
                return
                yield

            error = rpc_error(rpc.id, expired.code, expired.message, expired.data)
            return StreamOpening(orjson.dumps(error), None, nothing())
        events = task_events(task, after_seq=after)
        ignored = command.command != TaskCommandType.RE_STREAM and not fresh
        first = _as_is(task) if ignored else None  # AIP 4.5: answered with the task as is
        if first is None:
            due = fresh or ignored or (bool(task.events) and after < task.events[-1][0])
            first = await _first(events, wait=due)

        def data(event: Event) -> bytes:
            seq, body = event
            return orjson.dumps(
                rpc_result(rpc.id, {"eventSeq": seq, "eventData": orjson.Fragment(body)})
            )

        async def rest() -> AsyncIterator[tuple[int, bytes] | None]:
            async for item in events:
                yield None if item is None else (item[0], data(item))

        if first is None:
            return StreamOpening(b"", None, rest())
        return StreamOpening(data(first), first[0], rest())


def _as_is(task: PartnerTask) -> Event | None:
    """The task's current result, as an ignored command's answer; None before it has one
    (a retried start the handler has not answered yet: its first event is due)."""
    if task.published_bytes is None:
        return None
    return task.latest_result_seq, task.published_bytes


async def _first(events: AsyncIterator[Event | None], *, wait: bool) -> Event | None:
    """The first event, when one is due (a command just moved the task, one was ignored
    before the task had a result, or events are kept past the resume point); otherwise the
    stream opens with none (a task waiting for its leader may send nothing for a long
    time)."""
    if not wait:
        return None
    async for item in events:
        if item is not None:
            return item
    return None
