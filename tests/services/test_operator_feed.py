"""The operator's feed without HTTP: numbering, the ring, resets, and the stream loop over it."""

from __future__ import annotations

import asyncio
import contextlib

from app.broker.memory import MemoryBroker
from app.core.operator_events import OPERATOR_CHANNEL, message_summary, operator_delivery
from app.streams.operator_feed import OperatorFeed
from app.streams.service import StreamPlan, event_stream


def say(broker: MemoryBroker, n: int) -> None:
    broker.publish(OPERATOR_CHANNEL, operator_delivery("message", {"n": n}))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def kinds(frames: list[bytes]) -> list[str]:
    return [
        line.split(b": ", 1)[1].decode()
        for f in frames
        for line in f.split(b"\n")
        if line.startswith(b"event:")
    ]


async def test_events_are_numbered_kept_and_resumed_from() -> None:
    broker = MemoryBroker()
    feed = OperatorFeed(broker, ring_events=3)
    await feed.listen()
    for n in range(1, 6):
        say(broker, n)
    await settle()
    assert feed.last == 5
    assert feed.resume_point(None) == 5
    assert feed.resume_point(f"{feed.boot}-3") == 3
    assert feed.resume_point(f"{feed.boot}-2") == 2  # the ring holds 3, 4, 5: resumes after 2
    assert feed.resume_point(f"{feed.boot}-1") == -1  # 2 is gone: cannot resume after 1
    assert feed.resume_point("other-3") == -1 and feed.resume_point(f"{feed.boot}-9") == -1
    after = await feed.backlog(3, 10)
    assert [d.seq for d in after] == [4, 5]
    assert after[0].frame.startswith(f"id: {feed.boot}-4\nevent: message\n".encode())
    reset = await feed.backlog(-1, 10)
    assert [d.seq for d in reset] == [5] and kinds([reset[0].frame]) == ["reset"]
    await feed.close()


async def test_a_lost_stretch_is_a_reset_in_the_ring() -> None:
    broker = MemoryBroker()
    feed = OperatorFeed(broker, linger_seconds=0.01)
    await feed.listen()
    say(broker, 1)
    await settle()
    await asyncio.sleep(0.05)  # no reader: the feed stops listening
    assert not feed.listening and broker.active_channels() == []
    say(broker, 2)  # nobody hears it
    feed.linger_seconds = 60
    await feed.listen()
    say(broker, 3)
    await settle()
    frames = [d.frame for d in await feed.backlog(1, 10)]
    assert kinds(frames) == ["reset", "message"]  # a resumer from 1 learns it missed 2
    assert feed.resume_point(None) == feed.last  # a new stream starts after the gap
    for subscription in broker.subscriptions(OPERATOR_CHANNEL):
        subscription.fall_behind()  # as the Redis broker does when its connection drops
    await settle()
    assert kinds([(await feed.backlog(feed.last - 1, 1))[0].frame]) == ["reset"]
    await feed.close()


async def test_a_stream_over_the_feed_replays_then_goes_live() -> None:
    broker = MemoryBroker()
    feed = OperatorFeed(broker)
    await feed.listen()
    say(broker, 1)
    say(broker, 2)
    await settle()
    plan = StreamPlan(
        channel=OPERATOR_CHANNEL,
        after=feed.resume_point(f"{feed.boot}-1"),
        backlog=feed.backlog,
        me="(operator)",
        keepalive_seconds=5,
        queue_frames=8,
    )
    frames = event_stream(feed, plan)
    got = [await anext(frames)]  # the replay: event 2
    say(broker, 3)
    got.append(await asyncio.wait_for(anext(frames), 5))
    assert [g.split(b"\n", 1)[0] for g in got] == [
        f"id: {feed.boot}-2".encode(),
        f"id: {feed.boot}-3".encode(),
    ]
    with contextlib.suppress(StopAsyncIteration):
        await frames.aclose()
    await feed.close()
    assert broker.active_channels() == []


def test_a_message_summary_cuts_its_text() -> None:
    body = {
        "type": "message",
        "id": "m-1",
        "senderId": "a",
        "sessionId": "s",
        "groupId": "g",
        "seq": 4,
        "sentAt": "2026-12-01T00:00:00Z",
        "dataItems": [{"type": "data", "data": {}}, {"type": "text", "text": "é" * 300}],
    }
    assert message_summary(body) == {
        "groupId": "g",
        "seq": 4,
        "sessionId": "s",
        "id": "m-1",
        "senderId": "a",
        "type": "message",
        "sentAt": "2026-12-01T00:00:00Z",
        "text": "é" * 200,
    }
    point_to_point = message_summary({**body, "groupId": None, "dataItems": [], "taskId": "t"})
    assert "groupId" not in point_to_point and "text" not in point_to_point
    assert point_to_point["taskId"] == "t"
