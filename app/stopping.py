"""Stopping the hub's background tasks, for good.

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
from typing import Any

logger = logging.getLogger(__name__)

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
