"""Stopping the hub's background tasks, for good; and a command's children, on a signal.

On Python 3.11 ``asyncio.wait_for`` returns the inner result when a cancel arrives in the
same loop iteration as that result: the cancel is lost (CPython gh-86296, fixed in 3.12).
redis-py awaits its socket writes through it, so the broker's publisher, cancelled while it
published, went back to waiting for the next event, and the hub's shutdown waited for it
forever (CI's PostgreSQL + Redis run hung at its second test). ``stop`` cancels again until
each task has ended.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")

CANCEL_AGAIN_SECONDS = 0.5
"""Long enough for a task's own clean-up after its cancel (a session's rollback and close),
which a second cancel would cut short."""


async def stop(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel ``tasks`` and return once each has ended; one that swallowed its cancel is
    cancelled again. What one ended with other than its cancel is logged, not raised."""
    pending = {task for task in tasks if task is not None and not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=CANCEL_AGAIN_SECONDS)
    for ended in tasks:
        if ended is not None and not ended.cancelled() and ended.exception() is not None:
            logger.warning("%s ended with %r", ended.get_name(), ended.exception())


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run_until_signalled(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, with SIGINT, SIGTERM and SIGHUP each cancelling it, whatever
    the dispositions the process started with (a script's ``&`` starts it with SIGINT
    ignored): its ``finally`` blocks then stop what it started. A stop by a signal raises
    ``KeyboardInterrupt`` once they have run; a second signal meanwhile changes nothing."""

    async def until_signalled() -> T:
        task = asyncio.ensure_future(main)
        loop = asyncio.get_running_loop()
        received: list[int] = []

        def cancel(signum: int) -> None:
            if not received:
                task.cancel()
            received.append(signum)

        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, cancel, signum)
        try:
            return await task
        except asyncio.CancelledError:
            if received:
                raise KeyboardInterrupt from None
            raise
        finally:
            for signum in STOP_SIGNALS:
                loop.remove_signal_handler(signum)

    return asyncio.run(until_signalled())
