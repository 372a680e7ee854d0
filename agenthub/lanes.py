"""How the kit keeps sending: one rule for what is worth another try, one backoff policy,
and ordered lanes. The recorder, the notifier, group posts and event streams all use these.

- ``transient``: a failure that may go away by itself. That is no answer at all (the way
  there failed), a 5xx, 408, 425 or 429, or a problem whose code says "not yet"
  (``task-busy``). Anything else, an illegal move included, is final, and retrying it
  would only repeat the refusal.
- ``Backoff``: doubling pauses, capped, within a deadline and/or a number of tries.
- ``Lanes``: items in ordered lanes by key. Each lane sends from its head, one item or a
  batch at a time, and different lanes go side by side; a lane may first wait a little for
  its batch to fill (``linger``). The backlog can be counted, waited down to a low-water
  mark, or drained.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx

from agenthub.errors import problem_code

RETRYABLE_STATUSES = frozenset({408, 425, 429})
RETRYABLE_PROBLEMS = frozenset({"task-busy"})  # the hub: the task kept moving, send it again


def transient(status: int | None, problem: Any = None) -> bool:
    """Whether a failure may go away by itself: no answer (``status`` ``None``), a 5xx, a
    408, 425 or 429, or a problem whose code (its ``type``'s last segment) says so."""
    if status is None or status >= 500 or status in RETRYABLE_STATUSES:
        return True
    return problem_code(problem) in RETRYABLE_PROBLEMS


def problem_of(response: httpx.Response) -> Any:
    """The refusal's problem body, for ``transient`` (``None`` when it is no JSON)."""
    try:
        return response.json()
    except ValueError:
        return None


@dataclass(frozen=True)
class Backoff:
    """Pauses from ``first`` seconds, doubling up to ``most``; no more tries once the next
    pause would end past ``deadline`` seconds from the first try, or after ``attempts``."""

    first: float
    most: float
    deadline: float | None = None
    attempts: int | None = None

    def start(self) -> Retry:
        return Retry(self)


class Retry:
    """One run of tries under a ``Backoff``."""

    def __init__(self, policy: Backoff) -> None:
        self.policy = policy
        self.tries = 1
        self._pause = policy.first
        self._ends = None if policy.deadline is None else time.monotonic() + policy.deadline

    async def pause(self) -> bool:
        """Wait before the next try; ``False`` (at once) when the policy allows no more."""
        if self.policy.attempts is not None and self.tries >= self.policy.attempts:
            return False
        if self._ends is not None and time.monotonic() + self._pause > self._ends:
            return False
        await asyncio.sleep(self._pause)
        self._pause = min(self._pause * 2, self.policy.most)
        self.tries += 1
        return True

    def reset(self) -> None:
        """A try got through: the next pause is the first again."""
        self._pause = self.policy.first


K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def head(lane: deque[T]) -> list[T]:
    return [lane[0]]


class Lanes(Generic[K, T]):
    """Ordered lanes of items by key, one worker per lane with items in it.

    ``send(key, items)`` sends ``items``, the head of the lane as ``take`` chose it (by
    default the head item alone), and settles each one: delivered, or given up. The items
    leave their lane once ``send`` returns (or fails); a lane's next items wait until then.

    With ``linger`` (seconds), a lane holding fewer than ``fill`` items waits up to that long
    before it takes, so that items put just after one another go in one ``send`` (Kafka's
    producer does the same, ``linger.ms``); it stops waiting as soon as ``fill`` items are
    there or somebody waits for the lanes to drain.
    """

    def __init__(
        self,
        send: Callable[[K, list[T]], Awaitable[None]],
        *,
        take: Callable[[deque[T]], list[T]] = head,
        name: str = "agenthub-lane",
        linger: float = 0.0,
        fill: int = 1,
    ) -> None:
        self._send = send
        self._take = take
        self._name = name
        self._linger = linger
        self._fill = fill
        self._lanes: dict[K, deque[T]] = {}
        self._workers: dict[K, asyncio.Task[None]] = {}
        self._lingering: dict[K, asyncio.Event] = {}
        self._draining = 0
        self._settled = asyncio.Event()

    def put(self, key: K, item: T) -> None:
        lane = self._lanes.setdefault(key, deque())
        lane.append(item)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._run(key), name=f"{self._name}-{key}")
        elif len(lane) >= self._fill and key in self._lingering:
            self._lingering[key].set()

    def backlog(self, match: Callable[[K], bool] | None = None) -> int:
        """Items waiting or being sent, in every lane or in those ``match`` picks."""
        return sum(len(lane) for key, lane in self._lanes.items() if match is None or match(key))

    async def drain(
        self,
        *,
        to: int = 0,
        match: Callable[[K], bool] | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Wait until at most ``to`` items are left; ``False`` if ``timeout`` passed first.
        Lanes stop lingering meanwhile."""
        self._draining += 1
        for lingering in self._lingering.values():
            lingering.set()
        try:
            async with asyncio.timeout(timeout):
                while self.backlog(match) > to:
                    self._settled.clear()
                    await self._settled.wait()
        except TimeoutError:
            return False
        finally:
            self._draining -= 1
        return True

    async def aclose(self) -> None:
        """Stop every lane; what was not sent stays unsent."""
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _run(self, key: K) -> None:
        lane = self._lanes[key]
        try:
            while lane:
                await self._fill_up(key, lane)
                items = self._take(lane)
                try:
                    await self._send(key, items)
                finally:
                    for _ in items:
                        lane.popleft()
                    self._settled.set()
        finally:  # no await from the last check to here: an item put meanwhile is seen
            del self._workers[key]
            if not lane:  # else cancelled with items left: they stay counted
                del self._lanes[key]

    async def _fill_up(self, key: K, lane: deque[T]) -> None:
        """Give a lane short of ``fill`` items up to ``linger`` seconds to fill."""
        if self._linger <= 0 or len(lane) >= self._fill or self._draining:
            return
        filled = self._lingering[key] = asyncio.Event()
        try:
            async with asyncio.timeout(self._linger):
                await filled.wait()
        except TimeoutError:
            pass
        finally:
            del self._lingering[key]
