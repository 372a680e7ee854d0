"""The operator's hub-wide event stream, as this replica serves it: heard, numbered, kept.

Writers stage summaries of what they did (``core.operator_events``) and the broker's
``operator`` channel carries them, after their commits, to every replica that listens. Here
one feed per replica listens while a console is connected (and ``LINGER_SECONDS`` after the
last one left, so a reconnect resumes), numbers each event ``<boot>-<n>`` and keeps the last
``RING_EVENTS`` of them: that ring is the record a stream resumes from with
``Last-Event-ID``. Nothing is read from SQL: the operator's stream is a live view, and a
reader that cannot resume (an id of another boot or replica, one older than the ring, a gap
while the feed did not listen or its queue overflowed) gets ``event: reset`` and reloads.

The feed is the fan-out its streams subscribe to (``subscribe``/``unsubscribe``, as a
broker's), so they run the group and inbox streams' loop (``streams.service``): bounded
queues, catch-up from the ring after an overflow, keep-alives.
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections import deque

from app.broker import Broker, Delivery, Subscription
from app.broker.memory import MemoryBroker
from app.core.operator_events import OPERATOR_CHANNEL
from app.stopping import stop

RING_EVENTS = 10_000
FEED_QUEUE_FRAMES = 10_000  # what may queue between two turns of the numbering task
LINGER_SECONDS = 60.0
WAIT_SECONDS = 3600.0
RESET_FRAME = b"event: reset\ndata: {}\n\n"


class OperatorFeed:
    polls_sql_when_idle = False  # the ring is the record: there is nothing to poll

    def __init__(
        self,
        broker: Broker,
        *,
        ring_events: int = RING_EVENTS,
        linger_seconds: float = LINGER_SECONDS,
    ) -> None:
        self.broker = broker
        self.boot = uuid.uuid4().hex[:12]
        self.linger_seconds = linger_seconds
        self._ring: deque[Delivery] = deque(maxlen=ring_events)
        self._last = 0
        self._fanout = MemoryBroker()
        self._source: Subscription | None = None
        self._pump: asyncio.Task[None] | None = None
        self._linger: asyncio.TimerHandle | None = None
        self._readers = 0

    @property
    def last(self) -> int:
        """The newest event's number (0: none yet)."""
        return self._last

    @property
    def listening(self) -> bool:
        return self._source is not None

    async def listen(self) -> None:
        """Listen to the broker (again); what was said while it did not is a gap: a reset."""
        self._cancel_linger()
        if self._source is None:
            self._source = await self.broker.subscribe(OPERATOR_CHANNEL, FEED_QUEUE_FRAMES)
            if self._last:
                self._append(RESET_FRAME)
            self._pump = asyncio.create_task(self._run(self._source), name="operator-feed")
        if not self._readers:
            self._linger_then_stop()

    def resume_point(self, last_event_id: str | None) -> int:
        """Where a stream starts: after the event named, while the ring holds what followed
        it; now, without a name; -1 (a reset first) for a name it cannot resume from."""
        if last_event_id is None or not last_event_id.strip():
            return self._last
        boot, _, number = last_event_id.strip().rpartition("-")
        if boot != self.boot or not number.isdigit() or len(number) > 18:
            return -1
        seq = int(number)
        if seq > self._last or seq < self._first() - 1:
            return -1
        return seq

    async def backlog(self, after: int, limit: int) -> list[Delivery]:
        """Up to ``limit`` events after ``after``. A reader from before the ring gets a reset
        numbered as the newest event, and goes on from there."""
        first = self._first()
        if after < first - 1:
            return [Delivery(self._last, self._numbered(self._last, RESET_FRAME))]
        start = after - first + 1
        return list(itertools.islice(self._ring, start, start + limit))

    # -- the fan-out, as a broker's, for ``streams.service.event_stream`` ---------------------

    async def subscribe(self, channel: str, maxlen: int) -> Subscription:
        await self.listen()
        self._readers += 1
        self._cancel_linger()
        return await self._fanout.subscribe(OPERATOR_CHANNEL, maxlen)

    def unsubscribe(self, subscription: Subscription) -> None:
        self._fanout.unsubscribe(subscription)
        self._readers -= 1
        if not self._readers:
            self._linger_then_stop()

    async def close(self) -> None:
        self._cancel_linger()
        await stop(self._stop())
        await self._fanout.close()

    # -- inside ---------------------------------------------------------------------------------

    def _first(self) -> int:
        return self._ring[0].seq if self._ring else self._last + 1

    def _numbered(self, seq: int, frame: bytes) -> bytes:
        return b"id: %s-%d\n%s" % (self.boot.encode(), seq, frame)

    def _append(self, frame: bytes) -> None:
        self._last += 1
        delivery = Delivery(self._last, self._numbered(self._last, frame))
        self._ring.append(delivery)
        self._fanout.publish(OPERATOR_CHANNEL, delivery)

    async def _run(self, source: Subscription) -> None:
        while True:
            await source.wait(WAIT_SECONDS)
            if source.overflowed:  # or the broker lost its connection: events were lost
                source.reset()
                self._append(RESET_FRAME)
                continue
            for delivery in source.drain():
                self._append(delivery.frame)

    def _linger_then_stop(self) -> None:
        self._cancel_linger()
        loop = asyncio.get_running_loop()
        self._linger = loop.call_later(self.linger_seconds, self._stop_if_idle)

    def _cancel_linger(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None

    def _stop_if_idle(self) -> None:
        self._linger = None
        if not self._readers:
            self._stop()

    def _stop(self) -> asyncio.Task[None] | None:
        """Stop listening; the numbering task, cancelled (to be awaited by a closer)."""
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.cancel()
        if self._source is not None:
            self.broker.unsubscribe(self._source)
            self._source = None
        return pump
