"""Admission control: how much one agent, one address and this process may ask for at once.

A token request counts against its client address before its credentials are checked, and
against its agent only once they check out: a request that fails counts against the id it
claimed and its address, in buckets of their own, so that no one can spend an agent's share
of tokens by naming it (a failure never blocks the agent's own signed requests).

Token buckets, in this process: a replica's rates are its own (with N replicas behind a
balancer an agent gets up to N times the rate; the stream cap per agent is counted across
replicas, in ``app.streams.presence``). Every refusal says when to come back: 429 for one
caller over its share, 503 with ``Retry-After`` for a process that is full.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from app.config import Settings
from app.errors import (
    CertificateRateExceeded,
    PostRateExceeded,
    StreamsOpening,
    TokenRateExceeded,
)

MAX_KEYS = 100_000  # buckets kept; full (idle) ones go first when there are more


class TokenBucket:
    """``rate`` per second, up to ``burst`` at once, for each key; rate 0 is no limit."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str, cost: int = 1) -> float:
        """0 if ``key`` may go now ``cost`` times (and counts them); else the seconds until
        it may, counting none of them."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        tokens, at = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens >= cost:
            self._buckets[key] = (tokens - cost, now)
            if len(self._buckets) > MAX_KEYS:
                self._prune(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (cost - tokens) / self.rate

    def _prune(self, now: float) -> None:
        refill = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < refill}


def _retry_after(seconds: float) -> dict[str, str]:
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


@dataclass
class Admission:
    posts: TokenBucket
    tokens_per_agent: TokenBucket
    tokens_per_address: TokenBucket
    token_failures: TokenBucket
    stream_opens: TokenBucket
    certificates: TokenBucket

    @classmethod
    def from_settings(cls, settings: Settings) -> Admission:
        return cls(
            posts=TokenBucket(
                settings.posts_per_second_per_agent, 2 * settings.posts_per_second_per_agent
            ),
            tokens_per_agent=TokenBucket(
                settings.tokens_per_minute_per_agent / 60, settings.tokens_per_minute_per_agent
            ),
            tokens_per_address=TokenBucket(
                settings.tokens_per_minute_per_address / 60,
                settings.tokens_per_minute_per_address,
            ),
            token_failures=TokenBucket(
                settings.tokens_per_minute_per_agent / 60, settings.tokens_per_minute_per_agent
            ),
            stream_opens=TokenBucket(
                settings.stream_opens_per_second, 2 * settings.stream_opens_per_second
            ),
            certificates=TokenBucket(
                settings.certificates_per_hour_per_agent / 3600,
                settings.certificates_per_hour_per_agent,
            ),
        )

    def post(self, agent_id: str) -> None:
        self.posts_of(agent_id, 1)

    def posts_of(self, agent_id: str, count: int) -> None:
        """``count`` posts in one request (a batch): each one counts, and a refused request
        counts none."""
        wait = self.posts.take(agent_id, count)
        if wait:
            raise PostRateExceeded(
                "This agent posts faster than the hub takes; slow down.",
                headers=_retry_after(wait),
            )

    def token_request(self, address: str | None) -> None:
        """Before a token request's credentials are checked: its client address's share."""
        if address is not None:
            self._take_token(self.tokens_per_address, address)

    def token_granted(self, agent_id: str) -> None:
        """After its credentials checked out: the agent's (or application's) own share."""
        self._take_token(self.tokens_per_agent, agent_id)

    def token_failed(self, claimed: str | None, address: str | None) -> None:
        """After its credentials failed: the shares of failures of the id it claimed and of
        its address; past either the failure is a 429 rather than its 401 (requests whose
        credentials check out still pass)."""
        waits = [
            self.token_failures.take(key)
            for key in (f"id {claimed}", f"address {address}")
            if not key.endswith(" None")
        ]
        if wait := max(waits, default=0.0):
            raise TokenRateExceeded(
                "Too many failed token requests; check the credentials.",
                headers=_retry_after(wait),
            )

    @staticmethod
    def _take_token(bucket: TokenBucket, key: str) -> None:
        wait = bucket.take(key)
        if wait:
            raise TokenRateExceeded(
                "Too many token requests; an access token lasts, reuse it.",
                headers=_retry_after(wait),
            )

    def certificate(self, agent_id: str) -> None:
        wait = self.certificates.take(agent_id)
        if wait:
            raise CertificateRateExceeded(
                "This agent asks for certificates faster than the hub issues them; a "
                "certificate lasts days, reuse it.",
                headers=_retry_after(wait),
            )

    def open_stream(self) -> None:
        wait = self.stream_opens.take("")
        if wait:
            raise StreamsOpening(
                "The hub is opening as many streams as it can; resume a little later.",
                headers=_retry_after(wait),
            )
