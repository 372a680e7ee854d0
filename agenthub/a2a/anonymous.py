"""The rate an anonymous A2A caller gets: a token bucket per client address."""

from __future__ import annotations

import time
from collections import OrderedDict

MAX_ADDRESSES = 10_000
"""Addresses whose buckets are kept; the least recently seen go first."""


class AnonymousGate:
    """``per_second`` requests a second per address, bursts of twice that."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self.burst = max(1.0, 2 * per_second)
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait_seconds(self, address: str) -> float:
        """0 when ``address`` may go now (and takes its token); else how long until it may."""
        now = time.monotonic()
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.per_second if self.per_second > 0 else 60.0
        self._buckets[address] = (tokens, now)
        while len(self._buckets) > MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        return wait
