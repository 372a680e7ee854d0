"""A partner task's AIP events, relayed to its A2A caller as A2A events.

One relay speaks for a task at a time (``Speakers``): a cancel takes over from the relay of
the request that started the task, which would otherwise send the same events again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from a2a.server.tasks import TaskUpdater
from a2a.types import Message, TaskArtifactUpdateEvent

from agenthub.a2a.convert import A2A_STATE_OF, artifact_of, parts_of
from agenthub.partner import PartnerTask
from agenthub.protocol.messages import TaskState as AipState
from agenthub.task_events import task_events

Key = tuple[str, str]  # (caller, task)


class Speakers:
    """Which relay speaks for each task: the newest."""

    def __init__(self) -> None:
        self._current: dict[Key, object] = {}

    def take(self, caller_id: str, task_id: str) -> object:
        token = object()
        self._current[(caller_id, task_id)] = token
        return token

    def speaks(self, caller_id: str, task_id: str, token: object) -> bool:
        return self._current.get((caller_id, task_id)) is token

    def done(self, caller_id: str, task_id: str, token: object) -> None:
        if self.speaks(caller_id, task_id, token):
            del self._current[(caller_id, task_id)]


Complete = Callable[[], Awaitable[object]]
"""Completes the task on its A2A caller's behalf (``A2ABridge.apply``, in ``a2a.server``)."""


async def relay(
    task: PartnerTask,
    after: int,
    updater: TaskUpdater,
    speakers: Speakers,
    caller_name: str,
    complete: Complete,
    token: object,
) -> None:
    """The task's AIP events after ``after`` as A2A events, until the task waits for its
    caller or ends, or another relay speaks for it. ``awaiting-completion`` is completed
    on the caller's behalf (``complete``: an A2A caller has no ``complete``), its message
    and products shown with ``COMPLETED``."""
    sent_products: set[str] = set()
    offered: Message | None = None  # what the partner said as it awaited completion
    try:
        async for item in task_events(task, after_seq=after):
            if item is None:
                continue
            if not speakers.speaks(caller_name, task.id, token):
                return
            event = orjson.loads(item[1])
            if event.get("type") == "product-chunk":
                product = event["product"]
                sent_products.add(product["id"])
                await _artifact(updater, product, event.get("append", False), event["lastChunk"])
                continue
            state = AipState(event["status"]["state"])
            message = _status_message(updater, event["status"].get("dataItems"))
            if event.get("type") == "task-status-update" or state in (
                AipState.ACCEPTED,
                AipState.WORKING,
            ):
                if state != AipState.ACCEPTED:  # submitted is where the A2A task began
                    await updater.update_status(A2A_STATE_OF[state], message)
                continue
            for product in event.get("products") or ():
                if product["id"] not in sent_products:
                    sent_products.add(product["id"])
                    await _artifact(updater, product, False, True)
            if state == AipState.AWAITING_COMPLETION:
                offered = message
                await complete()
                continue
            if state == AipState.COMPLETED and message is None:
                message = offered
            await updater.update_status(A2A_STATE_OF[state], message)
            if state == AipState.AWAITING_INPUT:
                return
    finally:
        speakers.done(caller_name, task.id, token)


async def _artifact(
    updater: TaskUpdater, product: dict[str, Any], append: bool, last_chunk: bool
) -> None:
    """The product (or a chunk of it) as an artifact update, its description too
    (``TaskUpdater.add_artifact`` takes none, so the event is made here)."""
    await updater.event_queue.enqueue_event(
        TaskArtifactUpdateEvent(
            task_id=updater.task_id,
            context_id=updater.context_id,
            artifact=artifact_of(product),
            append=append,
            last_chunk=last_chunk,
        )
    )


def _status_message(updater: TaskUpdater, items: list[dict[str, Any]] | None) -> Message | None:
    if not items:
        return None
    return updater.new_agent_message(parts_of(items))
