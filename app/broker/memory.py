"""The in-process broker: the embedded default, for one hub process."""

from __future__ import annotations

from collections.abc import Callable

from app.broker.base import DEFAULT_QUEUE_FRAMES, Delivery, Subscription


class MemoryBroker:
    polls_sql_when_idle = False

    def __init__(self) -> None:
        self._channels: dict[str, set[Subscription]] = {}

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._channels.clear()

    async def ping(self) -> None:
        return None

    async def subscribe(self, channel: str, maxlen: int = DEFAULT_QUEUE_FRAMES) -> Subscription:
        subscription = Subscription(channel, maxlen)
        self._channels.setdefault(channel, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        subscription.close()
        subscribers = self._channels.get(subscription.channel)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._channels[subscription.channel]

    def publish(self, channel: str, delivery: Delivery) -> None:
        for subscription in self._channels.get(channel, ()):
            subscription.offer(delivery)

    def subscriptions(self, channel: str) -> list[Subscription]:
        return list(self._channels.get(channel, ()))

    def active_channels(self) -> list[str]:
        return list(self._channels)

    def mark_all_behind(self) -> None:
        """Every stream catches up from SQL (after the fan-out path lost events)."""
        for subscriptions in self._channels.values():
            for subscription in subscriptions:
                subscription.fall_behind()

    def queued_frames(self) -> int:
        """Frames waiting in all queues: what the broker holds in memory now."""
        return sum(len(s) for subs in self._channels.values() for s in subs)

    def outbox_events(self) -> int:
        return 0

    def watch_lag(self, observe: Callable[[float], None]) -> None:
        """Nothing to watch: an event reaches this process's streams as it is published."""
