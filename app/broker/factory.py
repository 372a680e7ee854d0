"""The broker a URL names: in this process (``memory://``), or Redis shared by replicas."""

from __future__ import annotations

from app.broker.base import Broker, is_redis_url
from app.broker.memory import MemoryBroker


def make_broker(url: str) -> Broker:
    if url.startswith("memory:"):
        return MemoryBroker()
    if is_redis_url(url):
        from app.broker.redis_broker import RedisBroker  # redis is the hub's [redis] extra

        return RedisBroker(url)
    raise ValueError(f"Unsupported AGENTHUB_BROKER_URL {url!r}: use memory:// or redis://…")
