"""Prometheus metrics: one registry per app, the rates the console shows, the /metrics body
(the middleware that times requests is ``app.middleware.MetricsMiddleware``)."""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily

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


class KindTally:
    """``Tally`` by one label (the kind of what it counts), a dict of ints."""

    def __init__(
        self, name: str, documentation: str, label: str, *, registry: CollectorRegistry
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.label = label
        self.counts: dict[str, int] = {}
        registry.register(self)

    def inc(self, kind: str, amount: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + amount

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(self.name, self.documentation, labels=[self.label])
        for kind, value in sorted(self.counts.items()):
            family.add_metric([kind], value)
        yield family


class TallyHistogram:
    """A histogram for the writer's hot path (a record's latency, a batch at a time): plain
    counts per bucket, summed up at scrape time (``Histogram.observe`` takes a lock)."""

    def __init__(
        self,
        name: str,
        documentation: str,
        buckets: tuple[float, ...],
        *,
        registry: CollectorRegistry,
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.bounds = buckets
        self.counts = [0] * (len(buckets) + 1)  # the last: over every bound (+Inf)
        self.sum = 0.0
        registry.register(self)

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.sum += seconds

    def collect(self) -> Iterator[HistogramMetricFamily]:
        cumulative, buckets = 0, []
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            cumulative += count
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), cumulative))
        yield HistogramMetricFamily(
            self.name, self.documentation, buckets=buckets, sum_value=self.sum
        )


class CountedElsewhere:
    """A counter whose value something else keeps (read at scrape time)."""

    def __init__(self, name: str, documentation: str, *, registry: CollectorRegistry) -> None:
        self.name = name
        self.documentation = documentation
        self.read: Callable[[], float] = lambda: 0.0
        registry.register(self)

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self.name, self.documentation, value=self.read())


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
        self.records = KindTally(
            "agenthub_records",
            "Messages recorded, by kind (message, task-command, task-result, answer…)",
            "kind",
            registry=self.registry,
        )
        self.record_latency = TallyHistogram(
            "agenthub_record_duration_seconds",
            "From a record's request reaching the hub to its COMMIT",
            LATENCY_BUCKETS_SECONDS,
            registry=self.registry,
        )
        self.queued_frames = Gauge(
            "agenthub_stream_queued_frames",
            "Frames waiting in the streams' send queues (the broker's subscriptions)",
            registry=self.registry,
        )
        self.certificates_issued = Counter(
            "agenthub_certificates_issued_total",
            "Agent certificates the hub's CA issued",
            registry=self.registry,
        )

        self.broker_lag = TallyHistogram(
            "agenthub_broker_lag_seconds",
            "From an event's publish on another replica to its arrival here (Redis broker)",
            LATENCY_BUCKETS_SECONDS,
            registry=self.registry,
        )
        self.broker_outbox = Gauge(
            "agenthub_broker_outbox_events",
            "Events committed here and not yet handed to the other replicas (Redis broker)",
            registry=self.registry,
        )
        self.pool_wait = TallyHistogram(
            "agenthub_db_pool_wait_seconds",
            "Time to get a connection from the SQL pool (a wait for a free one, or a new one)",
            LATENCY_BUCKETS_SECONDS,
            registry=self.registry,
        )
        self.pool_in_use = Gauge(
            "agenthub_db_pool_connections_in_use",
            "SQL connections checked out of the pool now (on SQLite, once it has written, one is"
            " the writer's own, kept between batches)",
            registry=self.registry,
        )
        self.pool_timeouts = Counter(
            "agenthub_db_pool_timeouts_total",
            "Connections asked of the SQL pool that came free too late (a request's 503)",
            registry=self.registry,
        )
        self.crl_signed = CountedElsewhere(
            "agenthub_crl_signed_total",
            "Revocation lists this replica signed (GETs between signings are served as kept)",
            registry=self.registry,
        )
        self.crl_entries = Gauge(
            "agenthub_crl_entries",
            "Certificates the last signed revocation list names",
            registry=self.registry,
        )

    def watch_queues(self, queued: Callable[[], int]) -> None:
        """Read the send queues' depth at each scrape (the broker's ``queued_frames``)."""
        self.queued_frames.set_function(lambda: float(queued()))

    def watch_broker(self, outbox: Callable[[], int]) -> None:
        """Read the broker's outbox at each scrape (its lag is observed as events arrive)."""
        self.broker_outbox.set_function(lambda: float(outbox()))

    def watch_pool(self, in_use: Callable[[], int]) -> None:
        self.pool_in_use.set_function(lambda: float(in_use()))

    def watch_revocation_lists(self, signed: Callable[[], int], entries: Callable[[], int]) -> None:
        self.crl_signed.read = lambda: float(signed())
        self.crl_entries.set_function(lambda: float(entries()))

    def recorded(self, records: list[Any]) -> None:
        """A batch the writer committed (``records.ingest``): counted by kind, and each
        one's time from its request to now."""
        self.ingested.inc(len(records))
        now = datetime.now(UTC)  # as received_at is made (app.models.types.utcnow)
        for record in records:
            message = record.message
            self.records.inc(message.type if message is not None else "answer")
            self.record_latency.observe((now - record.received_at).total_seconds())

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
