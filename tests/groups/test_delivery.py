"""The delivery loop on its own: one encoding shared by all, bounded queues, gap repair."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from app.broker import Delivery, MemoryBroker
from app.core.outbox import encode_frame
from app.streams.service import WRITE_BYTES, StreamPlan, event_stream


def delivery(seq: int, sender: str = "someone", ends_for: str | None = None) -> Delivery:
    return Delivery(seq, encode_frame(seq, "message", b'{"n":%d}' % seq), sender, ends_for)


async def test_every_subscriber_gets_the_same_bytes() -> None:
    broker = MemoryBroker()
    subs = [await broker.subscribe("group:g") for _ in range(3)]
    other = await broker.subscribe("group:h")
    item = delivery(1)
    broker.publish("group:g", item)
    frames = [s.drain()[0].frame for s in subs]
    assert all(f is item.frame for f in frames)
    assert other.drain() == []
    assert item.frame == b'id: 1\nevent: message\ndata: {"n":1}\n\n'


async def test_a_full_queue_drops_everything_and_says_so() -> None:
    broker = MemoryBroker()
    sub = await broker.subscribe("c", maxlen=4)
    for seq in range(1, 100):
        broker.publish("c", delivery(seq))
        assert len(sub) <= 4
    assert sub.overflowed and len(sub) == 0
    sub.reset()
    broker.publish("c", delivery(100))
    assert [d.seq for d in sub.drain()] == [100]
    broker.unsubscribe(sub)
    assert broker.queued_frames() == 0 and broker.subscriptions("c") == []


class Store:
    """A committed log, as SQL holds it; the backlog reads from it."""

    def __init__(self) -> None:
        self.log: list[Delivery] = []
        self.reads = 0

    async def backlog(self, after: int, limit: int) -> list[Delivery]:
        self.reads += 1
        return [d for d in self.log if d.seq > after][:limit]


def plan(store: Store, **extra: object) -> StreamPlan:
    options: dict[str, object] = {"keepalive_seconds": 5, "queue_frames": 8, **extra}
    return StreamPlan("c", after=0, backlog=store.backlog, me="me", **options)  # type: ignore[arg-type]


async def take(stream: AsyncIterator[bytes], frames: int) -> bytes:
    out = b""
    async for chunk in stream:
        out += chunk
        if out.count(b"\n\n") - out.count(b": keep-alive\n\n") >= frames:
            return out
    return out


def seqs(data: bytes) -> list[int]:
    return [int(line[4:]) for line in data.split(b"\n") if line.startswith(b"id: ")]


async def test_replay_then_live_without_gap_or_duplicate() -> None:
    broker, store = MemoryBroker(), Store()
    store.log = [delivery(1), delivery(2, sender="me"), delivery(3)]
    stream = event_stream(broker, plan(store))
    assert seqs(await take(stream, 2)) == [1, 3]  # its own message (2) is not sent back
    # live: 3 again (already sent), then 5 while 4 has not come yet: a gap
    store.log += [delivery(4), delivery(5)]
    reads = store.reads
    for seq in (3, 5):
        broker.publish("c", delivery(seq))
    assert seqs(await take(stream, 2)) == [4, 5]
    assert store.reads > reads  # the gap was repaired from the store
    store.log.append(delivery(6))
    for seq in (4, 6):  # 4 arrives late: dropped, it was sent
        broker.publish("c", delivery(seq))
    assert seqs(await take(stream, 1)) == [6]
    await stream.aclose()  # type: ignore[attr-defined]
    assert broker.subscriptions("c") == []


async def test_a_slow_reader_catches_up_from_the_store() -> None:
    broker, store = MemoryBroker(), Store()
    stream = event_stream(broker, plan(store, queue_frames=4))
    reading = asyncio.ensure_future(take(stream, 1))
    await asyncio.sleep(0.01)
    store.log.append(delivery(1))
    broker.publish("c", delivery(1))
    assert seqs(await reading) == [1]
    # the reader pauses; 50 more are committed and published meanwhile
    for seq in range(2, 52):
        store.log.append(delivery(seq))
        broker.publish("c", delivery(seq))
        assert broker.queued_frames() <= 4
    (subscription,) = broker.subscriptions("c")
    assert subscription.overflowed
    assert seqs(await take(stream, 50)) == list(range(2, 52))
    await stream.aclose()  # type: ignore[attr-defined]


async def test_only_an_ending_event_newer_than_the_membership_ends_the_stream() -> None:
    broker, store = MemoryBroker(), Store()
    store.log = [delivery(1), delivery(2, ends_for="me"), delivery(3), delivery(4, ends_for="me")]
    chunks = [chunk async for chunk in event_stream(broker, plan(store, ends_after_seq=2))]
    assert seqs(b"".join(chunks)) == [1, 2, 3, 4]


async def test_idle_streams_get_keepalives() -> None:
    broker, store = MemoryBroker(), Store()
    beats = 0

    async def beat() -> None:
        nonlocal beats
        beats += 1

    stream = event_stream(broker, plan(store, keepalive_seconds=0.01), on_keepalive=beat)
    chunks = [await anext(stream) for _ in range(3)]
    assert chunks == [b": keep-alive\n\n"] * 3 and beats >= 2
    await stream.aclose()  # type: ignore[attr-defined]


async def test_a_replay_reads_and_writes_about_a_megabyte_at_a_time() -> None:
    broker, store = MemoryBroker(), Store()
    big = b"x" * 900_000
    store.log = [Delivery(s, encode_frame(s, "message", big), "someone") for s in range(1, 41)]
    store.log += [delivery(s) for s in range(41, 2041)]  # then many small ones
    limits: list[int] = []
    reading = store.backlog

    async def backlog(after: int, limit: int) -> list[Delivery]:
        limits.append(limit)
        return await reading(after, limit)

    paced = StreamPlan("c", after=0, backlog=backlog, me="me", keepalive_seconds=5, queue_frames=8)
    stream = event_stream(broker, paced)
    writes = []
    async for chunk in stream:
        writes.append(len(chunk))
        if seqs(chunk) and seqs(chunk)[-1] == 2040:
            break
    await stream.aclose()
    assert max(writes) <= WRITE_BYTES + 1_000  # one big frame alone, never hundreds
    big_pages = [limit for limit in limits[1:] if limit <= 2]
    assert big_pages, limits  # past the first read, big events come a frame or two at a time
    assert max(limits) == 500  # and small ones in full pages again
    assert sum(writes) >= 40 * 900_000
