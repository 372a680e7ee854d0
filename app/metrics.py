"""Prometheus metrics: one registry per app, the rates the console shows, the /metrics body
(the middleware that times requests is ``app.middleware.MetricsMiddleware``)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily

LATENCY_BUCKETS_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)


class Tally:
    """A counter for the fan-out's hot path: a plain int, read at scrape time.

    prometheus_client's ``Counter.inc`` takes a lock and checks its arguments; a stream's
    writer bumps this once per write, always from the hub's one event loop.
    """

    def __init__(self, name: str, documentation: str, *, registry: CollectorRegistry) -> None:
        self.name = name
        self.documentation = documentation
        self.value = 0
        registry.register(self)  # a collector: it has collect()

    def inc(self, amount: int = 1) -> None:
        self.value += amount

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self.name, self.documentation, value=self.value)


class HubMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "agenthub_http_requests_total",
            "HTTP requests handled",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "agenthub_http_request_duration_seconds",
            "Time to the response's first byte",
            ["method", "route"],
            buckets=LATENCY_BUCKETS_SECONDS,
            registry=self.registry,
        )
        self.open_streams = Gauge(
            "agenthub_open_streams", "Server-sent event streams open now", registry=self.registry
        )
        self.deliveries = Tally(
            "agenthub_deliveries", "Events written to subscribers' streams", registry=self.registry
        )
        self.ingested = Tally(
            "agenthub_messages_ingested",
            "Messages recorded (group posts, point-to-point records, relayed answers)",
            registry=self.registry,
        )
        self.stream_catchups = Counter(
            "agenthub_stream_catchups_total",
            "Times a slow subscriber's queue overflowed and it caught up from SQL",
            registry=self.registry,
        )
        self.tokens_issued = Counter(
            "agenthub_access_tokens_issued_total", "Access tokens issued", registry=self.registry
        )
        self.loop_tasks = Gauge(
            "agenthub_event_loop_tasks",
            "Tasks alive on the hub's event loop (requests, streams, background work)",
            registry=self.registry,
        )
        self.loop_tasks.set_function(_loop_tasks)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def open_stream_count(self) -> int:
        return int(self.registry.get_sample_value("agenthub_open_streams") or 0)


def _loop_tasks() -> float:
    """Read when ``/metrics`` is rendered, on the loop: a leak of tasks shows as growth."""
    try:
        return float(len(asyncio.all_tasks()))
    except RuntimeError:  # rendered off the loop
        return 0.0


RATE_SAMPLE_SECONDS = 2.0


class Rates:
    """Deliveries and messages recorded per second, lately: two samples of the counters,
    taken every ``RATE_SAMPLE_SECONDS``; a rate runs from the older one to now (2 to 4 s)."""

    def __init__(self, metrics: HubMetrics) -> None:
        self.metrics = metrics
        self._samples: deque[tuple[float, int, int]] = deque(maxlen=2)
        self.sample()

    def sample(self) -> None:
        metrics = self.metrics
        self._samples.append((time.monotonic(), metrics.deliveries.value, metrics.ingested.value))

    def per_second(self) -> tuple[float, float]:
        """(deliveries, messages recorded) per second."""
        at, deliveries, ingested = self._samples[0]
        span = time.monotonic() - at
        if span <= 0:
            return 0.0, 0.0
        metrics = self.metrics
        return (
            (metrics.deliveries.value - deliveries) / span,
            (metrics.ingested.value - ingested) / span,
        )
