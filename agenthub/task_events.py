"""A partner task's events, as a stream reads them (AIP 6.2, GB/Z A.2): from a resume point
until the task ends, with pings while nothing happens; the stream stays open while the task
waits for its leader."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

from agenthub.partner import PartnerTask
from agenthub.protocol.jsonrpc import RpcErrorCode
from agenthub.protocol.tasks import is_final
from agenthub.runtime import RpcFault

KEEPALIVE_SECONDS = 15.0


class EventsExpired(RpcFault):
    """A ``re-stream`` from events the partner no longer keeps: AIP 6.2.2 answers it on
    the stream itself, as its one event."""


def check_resume(task: PartnerTask, after_seq: int) -> None:
    """Refuse to stream from a point past the task's last event, or from events it no
    longer keeps (``EventsExpired``, AIP 6.2.2)."""
    newest = task.next_seq - 1
    if after_seq > newest:
        raise RpcFault(
            RpcErrorCode.INVALID_PARAMS,
            f"lastEventSeq {after_seq} is past the task's last event.",
            {"lastAvailableSeq": newest},
        )
    if task.events and after_seq < task.events[0][0] - 1:
        raise EventsExpired(
            RpcErrorCode.TASK_NOT_FOUND,
            "Stream events expired",
            {"lastAvailableSeq": newest, "oldestAvailableSeq": task.events[0][0]},
        )


def stream_done(task: PartnerTask, last: int) -> bool:
    """Caught up with a task that ended."""
    return last >= task.next_seq - 1 and is_final(task.published_state)


def _has_news(task: PartnerTask, last: int) -> bool:
    return task.next_seq - 1 > last or stream_done(task, last)


async def task_events(
    task: PartnerTask, *, after_seq: int, keepalive_seconds: float = KEEPALIVE_SECONDS
) -> AsyncIterator[tuple[int, bytes] | None]:
    """Events (each its JSON) after ``after_seq`` until the task ends; None = ping."""
    check_resume(task, after_seq)
    last = after_seq
    while True:
        try:
            async with asyncio.timeout(keepalive_seconds):  # 3.11's wait_for loses cancels
                await task.wait_for(functools.partial(_has_news, task, last))
        except TimeoutError:
            pending: list[tuple[int, bytes]] = []
        else:
            pending = [(s, e) for s, e in task.events if s > last]
        if not pending:
            if stream_done(task, last):
                return
            yield None
            continue
        for seq, event in pending:
            yield seq, event
            last = seq
        if stream_done(task, last):
            return
