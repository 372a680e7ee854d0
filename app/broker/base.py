"""The broker interface: publish pre-encoded frames, subscribe with a bounded queue."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

DEFAULT_QUEUE_FRAMES = 256


ENDS_ALL = "*"
"""``Delivery.ends_for`` of an event that ends every subscriber's stream (no agent id is ``*``)."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """One committed event of one channel, encoded once for every subscriber.

    ``sender_id`` is left out of its own streams; ``ends_for`` names the agent whose
    membership (and so whose stream) this event ends.
    """

    seq: int
    frame: bytes
    sender_id: str | None = None
    ends_for: str | None = None
    views: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Other subscriber kinds' encodings of the event (an A2A stream's, ``app.a2a_groups``),
    made by the first subscriber of each kind for all the others."""


class Subscription:
    """A subscriber's bounded queue. On overflow it drops everything and says so.

    The reader then resets it and catches up from SQL, so a reader that stops
    reading costs at most ``maxlen`` frames of hub memory.
    """

    __slots__ = ("_due", "_items", "_set", "_timer", "_waiter", "channel", "maxlen", "overflowed")

    def __init__(self, channel: str, maxlen: int = DEFAULT_QUEUE_FRAMES) -> None:
        self.channel = channel
        self.maxlen = maxlen
        self.overflowed = False
        self._items: list[Delivery] = []  # a list, handed over whole by drain (no copy)
        self._set = False  # woken since the last drain (an Event's state, without its deque)
        self._waiter: asyncio.Future[None] | None = None  # only while the reader waits
        self._due = 0.0  # when the current wait times out (loop time)
        self._timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self._items)

    def offer(self, delivery: Delivery) -> None:
        if self.overflowed:
            return
        if len(self._items) >= self.maxlen:
            self.fall_behind()
        else:
            self._items.append(delivery)
            self._signal()

    def fall_behind(self) -> None:
        """Make the reader catch up from SQL, as after an overflow."""
        self.overflowed = True
        self._items = []
        self._signal()

    def wake(self) -> None:
        """End the reader's current wait with nothing new (it then looks at why)."""
        self._signal()

    def drain(self) -> list[Delivery]:
        items, self._items = self._items, []
        self._set = False
        return items

    def reset(self) -> None:
        """Forget the overflow; what is published from now on is queued again."""
        self._items = []
        self.overflowed = False

    def _signal(self) -> None:
        self._set = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self, timeout: float) -> bool:
        """True when something arrived (or the queue overflowed) within ``timeout``.

        One timer per quiet period, not one per wait: a wait only moves the due time, and
        the timer, when it rings early, re-arms itself for it. Under load a stream waits
        once per write, and a timer per wait was a sixth of a delivery's cost.
        """
        if self._items or self.overflowed:
            return True
        loop = asyncio.get_running_loop()
        self._due = loop.time() + timeout
        if self._timer is None:
            self._timer = loop.call_at(self._due, self._ring)
        if not self._set:
            self._waiter = loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self._items or self.overflowed:
            return True
        self._set = False
        return False

    def _ring(self) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() < self._due:
            self._timer = loop.call_at(self._due, self._ring)
            return
        self._timer = None
        self._signal()

    def close(self) -> None:
        """Stop the timer (the broker calls this when the subscriber leaves)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Broker(Protocol):
    polls_sql_when_idle: bool
    """True when the broker can lose events (a network one): idle streams then look at SQL."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Raise if the broker cannot be reached."""

    async def subscribe(self, channel: str, maxlen: int = DEFAULT_QUEUE_FRAMES) -> Subscription:
        """Subscribed once this returns: what is published from then on is delivered."""

    def unsubscribe(self, subscription: Subscription) -> None: ...

    def publish(self, channel: str, delivery: Delivery) -> None:
        """Hand a committed event to every subscriber of ``channel``; never blocks."""

    def queued_frames(self) -> int:
        """Frames waiting in this process's subscriptions (the streams' send queues)."""

    def outbox_events(self) -> int:
        """Events committed here and not yet handed to the other replicas (0 alone)."""

    def watch_lag(self, observe: Callable[[float], None]) -> None:
        """Tell ``observe`` each event's seconds from its publish on another replica to its
        arrival here (by the replicas' clocks); an in-process broker has none."""


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def is_redis_url(url: str) -> bool:
    return url.startswith(REDIS_SCHEMES)
