"""Server-sent event streams of numbered events: subscribe, replay from SQL, then go live.

One loop serves the group streams and the inbox streams. It subscribes to the broker
*before* it reads the backlog, so nothing committed in between is missed, and it drops
every delivery whose ``seq`` it has already written, so nothing arrives twice. A gap in
the live seqs, or a queue that overflowed because the reader is slow, sends it back to
SQL. Frames that queued up together go out in one write.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from app.broker import Delivery, Subscription
from app.broker.base import ENDS_ALL
from app.streams.presence import StreamLease

KEEPALIVE_FRAME = b": keep-alive\n\n"
BACKLOG_PAGE = 500  # rows at most per read of the record
FIRST_PAGE = 2  # rows of the first read: it says how large this channel's events are
WRITE_BYTES = 1 << 20
"""A replay writes (and reads) about this much at a time, whatever the events' size: eight
readers replaying 900 KB messages in pages of 500 rows took a hub from 127 to 1,370 MiB."""

Backlog = Callable[[int, int], Awaitable[list[Delivery]]]


class Fanout(Protocol):
    """What a stream subscribes to: a broker, or the operator's feed (``operator_feed``)."""

    polls_sql_when_idle: bool

    async def subscribe(self, channel: str, maxlen: int) -> Subscription: ...

    def unsubscribe(self, subscription: Subscription) -> None: ...


@dataclass
class StreamPlan:
    channel: str
    after: int
    backlog: Backlog
    me: str
    keepalive_seconds: float
    queue_frames: int
    ends_after_seq: int | None = None
    """Only a membership-ending event after this seq ends the stream (not an older one)."""
    last_seq: int | None = None
    """The channel's last seq for ever (a concluded group's): a stream past it ends at once."""
    lease: StreamLease | None = None
    """The token's right to the stream: it ends when the token expires or is revoked."""
    encode: Callable[[Delivery], bytes] | None = None
    """Another subscriber kind's frame of a delivery (an A2A client's: ``app.a2a_groups``);
    None: the delivery's own SSE frame."""
    prepare: Callable[[list[Delivery]], Awaitable[None]] | None = None
    """Awaited with each batch before ``encode`` sees it (what it needs from the store)."""
    first: bytes = b""
    """Written before any event, once the stream is subscribed (an A2A stream's task)."""


class _Writer:
    """Filters deliveries for one subscriber and tracks the last seq it has passed."""

    def __init__(self, plan: StreamPlan) -> None:
        self.plan = plan
        self.last = plan.after
        self.ended = plan.last_seq is not None and plan.after >= plan.last_seq

    def take(self, deliveries: list[Delivery], *, live: bool) -> tuple[list[bytes], bool]:
        """The frames to write, and whether a live seq gap was seen (then stop and backfill).

        SQL is the record, so a backlog is taken as it is.
        """
        frames: list[bytes] = []
        for delivery in deliveries:
            if delivery.seq <= self.last:
                continue
            if live and delivery.seq > self.last + 1:
                return frames, True
            self.last = delivery.seq
            if delivery.sender_id != self.plan.me:
                encode = self.plan.encode
                frames.append(delivery.frame if encode is None else encode(delivery))
            ends = delivery.ends_for in (self.plan.me, ENDS_ALL)
            if ends and delivery.seq > (self.plan.ends_after_seq or 0):
                self.ended = True
                return frames, False
        return frames, False


def _seq(delivery: Delivery) -> int:
    return delivery.seq


def by_size(frames: list[bytes], limit: int) -> list[list[bytes]]:
    """``frames`` in runs of about ``limit`` bytes (a larger frame is a run of its own)."""
    runs: list[list[bytes]] = []
    run: list[bytes] = []
    size = 0
    for frame in frames:
        if run and size + len(frame) > limit:
            runs.append(run)
            run, size = [], 0
        run.append(frame)
        size += len(frame)
    if run:
        runs.append(run)
    return runs


def next_page(rows: int, page_bytes: int) -> int:
    """Rows for the next read, so that one read holds about ``WRITE_BYTES``."""
    if page_bytes > WRITE_BYTES:
        return max(1, rows * WRITE_BYTES // page_bytes)
    if page_bytes < WRITE_BYTES // 4:
        return min(BACKLOG_PAGE, rows * 4)
    return rows


async def event_stream(
    broker: Fanout,
    plan: StreamPlan,
    *,
    on_keepalive: Callable[[], Awaitable[None]] | None = None,
    on_frames: Callable[[int], None] | None = None,
    on_overflow: Callable[[], None] | None = None,
) -> AsyncGenerator[bytes, None]:
    subscription = await broker.subscribe(plan.channel, plan.queue_frames)
    lease = plan.lease
    if lease is not None:
        lease.subscription = subscription
    writer = _Writer(plan)
    try:
        if plan.first:
            yield plan.first
        backfill = True
        while not writer.ended and (lease is None or lease.valid()):
            if backfill:
                backfill = False
                rows = FIRST_PAGE
                while not writer.ended and (lease is None or lease.valid()):
                    batch = await plan.backlog(writer.last, rows)
                    if plan.prepare is not None:
                        await plan.prepare(batch)
                    frames, _ = writer.take(batch, live=False)
                    for chunk in by_size(frames, WRITE_BYTES):
                        if on_frames:
                            on_frames(len(chunk))
                        yield b"".join(chunk)
                    if len(batch) < rows:
                        break
                    rows = next_page(rows, sum(len(d.frame) for d in batch))
                continue
            if subscription.overflowed:
                if on_overflow:
                    on_overflow()
                subscription.reset()
                backfill = True
                continue
            live = subscription.drain()
            if not live:
                wait = plan.keepalive_seconds
                if lease is not None:  # never wait past the token's expiry
                    wait = min(wait, max(lease.seconds_left(), 0.0))
                if not await subscription.wait(wait):
                    if lease is not None and not lease.valid():
                        break
                    yield KEEPALIVE_FRAME
                    if on_keepalive:
                        await on_keepalive()
                    # a network broker can lose events: a quiet stream looks at the record
                    backfill = broker.polls_sql_when_idle
                continue
            if len(live) > 1:
                live.sort(key=_seq)
            if plan.prepare is not None:
                await plan.prepare(live)
            frames, backfill = writer.take(live, live=True)
            if frames:
                if on_frames:
                    on_frames(len(frames))
                yield b"".join(frames)
    finally:
        if lease is not None:
            lease.subscription = None
        broker.unsubscribe(subscription)
