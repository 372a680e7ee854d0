"""Waiting for something a server does in its own time: asked again until it holds, within a
bound that only a hang reaches (a loaded machine is slow, not stuck)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE_SECONDS = 60.0
"""Long past what any of these takes on a busy machine; short of the suite's hang timeout."""


async def eventually(
    check: Callable[[], T | Awaitable[T]],
    what: str,
    *,
    within: float = PATIENCE_SECONDS,
    every: float = 0.05,
) -> T:
    """``check()``'s first truthy answer (awaited, if it is a coroutine); an
    ``AssertionError`` naming ``what`` if none comes ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        answer = check()
        if inspect.isawaitable(answer):
            answer = await answer
        if answer:
            return answer  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within:.0f} s")
        await asyncio.sleep(every)
