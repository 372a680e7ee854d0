"""The Redis broker: fan-out between hub replicas (``AGENTHUB_BROKER_URL=redis://…``).

Redis pub/sub is only the wake-up path; SQL stays the record (PERF-NOTES §5). A replica
delivers what it commits to its own streams at once, and publishes it on the channel's Redis
topic for the others, which subscribe to a topic only while they have streams on it. When
the Redis connection drops, every local stream is told to catch up from SQL once it is back,
and idle streams look at SQL on each keep-alive, so a broker hiccup loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from app.broker.base import DEFAULT_QUEUE_FRAMES, Delivery, Subscription
from app.broker.memory import MemoryBroker
from app.stopping import stop

logger = logging.getLogger(__name__)

TOPIC_PREFIX = "agenthub:"
OUTBOX_LIMIT = 100_000
PUBLISH_BATCH = 200
RECONNECT_SECONDS = (0.1, 0.5, 1.0, 2.0)


def _encode(origin: bytes, delivery: Delivery) -> bytes:
    """The event as published: its head names the replica (with the time it published,
    ``origin@unix-seconds``: an older replica reads it as just another origin), the seq, the
    sender and whose membership it ends; the SSE frame follows."""
    head = b"%s@%.6f %d %s %s\n" % (
        origin,
        time.time(),
        delivery.seq,
        (delivery.sender_id or "-").encode(),
        (delivery.ends_for or "-").encode(),
    )
    return head + delivery.frame


def _decode(payload: bytes) -> tuple[bytes, float | None, Delivery]:
    head, frame = payload.split(b"\n", 1)
    stamped, seq, sender, ends = head.split(b" ")
    origin, _, at = stamped.partition(b"@")
    return (
        origin,
        float(at) if at else None,
        Delivery(
            int(seq),
            frame,
            None if sender == b"-" else sender.decode(),
            None if ends == b"-" else ends.decode(),
        ),
    )


class RedisBroker:
    polls_sql_when_idle = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = uuid.uuid4().hex[:16].encode()
        self.local = MemoryBroker()
        self.reconnects = 0
        self._client: redis.Redis | None = None
        self._pubsub: Any = None
        self._topics: set[str] = set()
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(OUTBOX_LIMIT)
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._lost_events = False
        self._dropping: set[asyncio.Task[None]] = set()
        self._on_lag: Callable[[float], None] | None = None

    async def start(self) -> None:
        self._client = redis.from_url(self.url)
        self._tasks = [
            asyncio.create_task(self._publish_forever()),
            asyncio.create_task(self._listen_forever()),
        ]

    async def close(self) -> None:
        self._closing = True
        await stop(*self._tasks)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()
        await self.local.close()

    async def ping(self) -> None:
        assert self._client is not None
        await self._client.ping()

    @staticmethod
    def _topic(channel: str) -> str:
        return TOPIC_PREFIX + channel

    async def subscribe(self, channel: str, maxlen: int = DEFAULT_QUEUE_FRAMES) -> Subscription:
        """Subscribed locally and (when Redis answers) on the topic, before it returns."""
        subscription = await self.local.subscribe(channel, maxlen)
        topic = self._topic(channel)
        if topic not in self._topics:
            self._topics.add(topic)
            try:
                pubsub = self._connected_pubsub()
                await pubsub.subscribe(topic)
            except (RedisError, OSError):
                # the listener resubscribes every topic when Redis is back, and the
                # stream catches up from SQL then
                logger.warning("Redis is unreachable; %s will catch up from SQL", channel)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self.local.unsubscribe(subscription)
        if not self.local.subscriptions(subscription.channel):
            topic = self._topic(subscription.channel)
            self._topics.discard(topic)
            if self._pubsub is not None and not self._closing:
                task = asyncio.get_running_loop().create_task(self._drop_topic(topic))
                self._dropping.add(task)  # held until done, so it is not collected mid-flight
                task.add_done_callback(self._dropping.discard)

    async def _drop_topic(self, topic: str) -> None:
        if topic not in self._topics and self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(topic)

    def publish(self, channel: str, delivery: Delivery) -> None:
        self.local.publish(channel, delivery)
        try:
            self._outbox.put_nowait((self._topic(channel), _encode(self.origin, delivery)))
        except asyncio.QueueFull:
            logger.warning("Redis outbox full; other replicas will catch up from SQL")

    # -- what tests and metrics look at -------------------------------------------------------

    def subscriptions(self, channel: str) -> list[Subscription]:
        return self.local.subscriptions(channel)

    def active_channels(self) -> list[str]:
        return self.local.active_channels()

    def queued_frames(self) -> int:
        return self.local.queued_frames()

    def outbox_events(self) -> int:
        return self._outbox.qsize()

    def watch_lag(self, observe: Callable[[float], None]) -> None:
        self._on_lag = observe

    # -- the two loops -----------------------------------------------------------------------

    def _connected_pubsub(self) -> Any:
        if self._pubsub is None:
            assert self._client is not None
            self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        return self._pubsub

    async def _publish_forever(self) -> None:
        assert self._client is not None
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < PUBLISH_BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for topic, payload in batch:
                        pipe.publish(topic, payload)
                    await pipe.execute()
            except (RedisError, OSError):
                logger.warning("publishing %d events to Redis failed; SQL will fill in", len(batch))

    async def _listen_forever(self) -> None:
        failures = 0
        while True:
            try:
                if not self._topics:
                    await asyncio.sleep(0.05)
                    continue
                pubsub = self._connected_pubsub()
                if not pubsub.subscribed:
                    await pubsub.subscribe(*self._topics)
                if self._lost_events:
                    # back on Redis: what was published meanwhile reached nobody here
                    self._lost_events = False
                    self.local.mark_all_behind()
                message = await pubsub.get_message(timeout=1.0)
                failures = 0
                if message is None or message.get("type") != "message":
                    continue
                origin, published_at, delivery = _decode(message["data"])
                if origin != self.origin:
                    if published_at is not None and self._on_lag is not None:
                        self._on_lag(max(0.0, time.time() - published_at))
                    channel = message["channel"].decode().removeprefix(TOPIC_PREFIX)
                    self.local.publish(channel, delivery)
            except asyncio.CancelledError:
                raise
            except Exception:
                if failures == 0:
                    logger.warning("lost the Redis subscription; reconnecting", exc_info=True)
                await self._reset_pubsub()
                await asyncio.sleep(RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)])
                failures += 1

    async def _reset_pubsub(self) -> None:
        """Forget the connection; local streams catch up from SQL now and once it is back."""
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        self._pubsub = None
        self.reconnects += 1
        self._lost_events = True
        self.local.mark_all_behind()
