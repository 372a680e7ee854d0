"""OpenTelemetry traces across agents and the hub: off unless configured, by the standard
``OTEL_*`` variables.

Spans are made with ``opentelemetry-api`` (a dependency of the kit; without a configured
provider every span is a no-op that costs a function call). ``configure`` (the
``otel`` extra: the SDK, the OTLP/HTTP exporter and the ASGI instrumentation)
turns them on for a process that makes an agent (``Agent(...)``: a partner, and a leader
or group member that serves nothing too) or runs the hub (``agenthub serve``) when
``OTEL_TRACES_EXPORTER`` names an exporter or an ``OTEL_EXPORTER_OTLP_*`` endpoint is set
(``OTEL_SDK_DISABLED=true`` wins); the SDK reads the rest itself (``OTEL_SERVICE_NAME``,
``OTEL_TRACES_SAMPLER``, ``OTEL_EXPORTER_OTLP_ENDPOINT``…).

W3C trace context (``traceparent``/``tracestate``) travels on every HTTP hop: every
request of a kit client carries it (``agenthub.transport.http_client``: AIP and A2A calls,
records, group posts; no span of its own, the call's is the one), the ASGI
instrumentation reads it on a kit endpoint, FastAPI's own telemetry on the hub. A group
message keeps its publish context in SQL, and each SSE delivery carries it (a
``traceparent:`` field, which EventSource clients ignore), so a subscriber's delivery span
links to the publish even after a resume.

Names follow the OpenTelemetry conventions where they exist: A2A/GenAI's
``gen_ai.conversation.id`` (the session), ``gen_ai.agent.id``; AIP's methods as A2A's are
named (``aip.rpc``, ``aip.stream``, with ``aip.task.id`` and ``aip.task.state``); group
fan-out as messaging (``publish <group>`` and ``process <group>``, linked). No message body
goes into an attribute.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.trace import Link, Span, SpanKind, Tracer

logger = logging.getLogger(__name__)

TRACEPARENT = "traceparent"
TRACESTATE = "tracestate"
SCOPE = "agenthub"
_configured = False
_told_missing: list[bool] = []  # whether a missing otel extra was logged


def _wanted() -> bool:
    """Whether the environment asks for traces (the standard variables)."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter:
        return exporter != "none"
    return bool(
        os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        or os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )


def configure(service_name: str) -> bool:
    """Turn tracing on for this process when the environment asks for it: a tracer
    provider exporting by OTLP/HTTP (or the console, ``OTEL_TRACES_EXPORTER=console``),
    named ``service_name`` unless ``OTEL_SERVICE_NAME`` names it.
    Returns whether it is on; once on, calling again does nothing."""
    global _configured
    if _configured:
        return True
    if not _wanted():
        return False
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            ConsoleSpanExporter,
            SpanExporter,
        )
    except ImportError:
        if not _told_missing:  # once a process, not once an agent made
            _told_missing.append(True)
            logger.warning(
                "OTEL_* asks for traces, but the otel extra is not installed "
                "(pip install 'agenthub[otel]'): tracing stays off"
            )
        return False
    named = os.environ.get("OTEL_SERVICE_NAME")  # the SDK's Resource reads it
    attributes = {} if named else {"service.name": service_name}
    provider = TracerProvider(resource=Resource.create(attributes))
    exporters: list[SpanExporter] = []
    for name in (os.environ.get("OTEL_TRACES_EXPORTER") or "otlp").split(","):
        name = name.strip().lower()
        if name == "otlp":
            exporters.append(OTLPSpanExporter())
        elif name == "console":
            exporters.append(ConsoleSpanExporter())
        elif name != "none":
            logger.warning("OTEL_TRACES_EXPORTER %r is not one agenthub knows: ignored", name)
    for exporter in exporters:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    _configured = True
    logger.info("tracing on: %s", ", ".join(type(e).__name__ for e in exporters))
    return True


def shutdown() -> None:
    """Flush and stop the tracer provider ``configure`` made (spans still queued go)."""
    if _configured:
        provider = trace.get_tracer_provider()
        closing = getattr(provider, "shutdown", None)
        if closing is not None:
            closing()


def flush(timeout_millis: int = 5_000) -> None:
    """Export the spans still queued by ``configure``'s provider now, and keep it running (a
    process that made an agent and goes on, or ends before the exporter's next batch)."""
    if _configured:
        provider = trace.get_tracer_provider()
        flushing = getattr(provider, "force_flush", None)
        if flushing is not None:
            flushing(timeout_millis)


def on() -> bool:
    """Whether spans are recorded: a tracer provider is set (``configure``'s, or one the
    application set up itself)."""
    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


def asgi(app: Any) -> Any:
    """``app`` with the ASGI instrumentation around it when tracing is on and the
    instrumentation installed (a server span per request, its parent the caller's
    ``traceparent``); else ``app`` itself."""
    if not on():
        return app
    try:
        from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
    except ImportError:
        return app
    # a span per ASGI message sent or received is three more a call, and tells nothing
    return OpenTelemetryMiddleware(app, exclude_spans=["receive", "send"])


def tracer() -> Tracer:
    return trace.get_tracer(SCOPE)


@contextlib.contextmanager
def span(
    name: str,
    *,
    kind: str = "INTERNAL",
    attributes: Mapping[str, Any] | None = None,
    links: list[str | None] | None = None,
    parent: str | None = None,
) -> Iterator[Span]:
    """A span named ``name`` (``kind``: ``CLIENT``, ``SERVER``, ``PRODUCER``, ``CONSUMER``
    or ``INTERNAL``) around the block, with ``links`` to the spans whose ``traceparent``
    values are given and, with ``parent`` (a ``traceparent``), under that span rather than
    the current one. Yields the span (a non-recording one while tracing is off, at the
    cost of a type check)."""
    if not on():
        yield trace.INVALID_SPAN
        return
    context = _context_of(parent) if parent else None
    linked = [Link(c) for c in (_span_context(t) for t in links or ()) if c is not None]
    with tracer().start_as_current_span(
        name,
        context=context,
        kind=SpanKind[kind],
        attributes={k: v for k, v in (attributes or {}).items() if v is not None},
        links=linked,
    ) as current:
        yield current


def started(
    name: str, *, kind: str = "INTERNAL", attributes: Mapping[str, Any] | None = None
) -> Span:
    """A span begun under the current one but not made current: for work that yields
    (a stream), whose steps run in their readers' contexts; ``end()`` it when done, and make
    it current only for a step at a time (``within``)."""
    if not on():
        return trace.INVALID_SPAN
    return tracer().start_span(
        name,
        kind=SpanKind[kind],
        attributes={k: v for k, v in (attributes or {}).items() if v is not None},
    )


@contextlib.contextmanager
def within(current: Span) -> Iterator[None]:
    """``current`` as the current span inside the block (one step of a yielding task)."""
    if not on():
        yield
        return
    token = otel_context.attach(trace.set_span_in_context(current))
    try:
        yield
    finally:
        otel_context.detach(token)


def current_span() -> Span:
    """The current span (a non-recording one when there is none)."""
    return trace.get_current_span()


def current_traceparent() -> str | None:
    """The current span's ``traceparent`` (None when there is no recording span)."""
    if not on():
        return None
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier.get(TRACEPARENT)


def inject(headers: MutableMapping[str, str]) -> None:
    """Put the current trace context into ``headers`` (W3C ``traceparent``/``tracestate``)."""
    propagate.inject(headers)


@contextlib.contextmanager
def attached(traceparent: str | None) -> Iterator[None]:
    """Make ``traceparent`` the current context inside the block (nothing without one)."""
    if not traceparent:
        yield
        return
    token = otel_context.attach(_context_of(traceparent))
    try:
        yield
    finally:
        otel_context.detach(token)


def set_attributes(current: Span, attributes: Mapping[str, Any]) -> None:
    for key, value in attributes.items():
        if value is not None:
            current.set_attribute(key, value)


def aip_attributes(params: Any, agent_id: str | None) -> dict[str, Any]:
    """An AIP call's attributes, from its ``params`` (a ``command`` or stream ``message``):
    the task, its session as the conversation, the command, and the agent called."""
    wire = params.get("command") or params.get("message") if isinstance(params, dict) else None
    if not isinstance(wire, dict):
        wire = params if isinstance(params, dict) else {}
    return {
        "aip.task.id": wire.get("taskId"),
        "aip.command": wire.get("command"),
        "gen_ai.conversation.id": wire.get("sessionId"),
        "gen_ai.agent.id": agent_id,
    }


def task_state(result: Any) -> str | None:
    """The task state an AIP answer shows (a task result, or a stream event's), if any."""
    if not isinstance(result, dict):
        return None
    payload = result.get("eventData", result)
    status = payload.get("status") if isinstance(payload, dict) else None
    state = status.get("state") if isinstance(status, dict) else None
    return state if isinstance(state, str) else None


def _context_of(traceparent: str) -> Any:
    return propagate.extract({TRACEPARENT: traceparent})


def _span_context(traceparent: str | None) -> Any:
    if not traceparent:
        return None
    found = trace.get_current_span(_context_of(traceparent)).get_span_context()
    return found if found.is_valid else None


__all__ = [
    "TRACEPARENT",
    "aip_attributes",
    "asgi",
    "attached",
    "configure",
    "current_span",
    "current_traceparent",
    "inject",
    "on",
    "set_attributes",
    "shutdown",
    "span",
    "started",
    "task_state",
    "within",
]
