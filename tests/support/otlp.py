"""An OTLP/HTTP trace receiver for tests: ``POST /v1/traces`` with an
``ExportTraceServiceRequest`` (protobuf, as the SDK's exporter sends it), decoded by
``opentelemetry-proto``; what it received is ``spans``."""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

KINDS = {
    ProtoSpan.SPAN_KIND_INTERNAL: "INTERNAL",
    ProtoSpan.SPAN_KIND_SERVER: "SERVER",
    ProtoSpan.SPAN_KIND_CLIENT: "CLIENT",
    ProtoSpan.SPAN_KIND_PRODUCER: "PRODUCER",
    ProtoSpan.SPAN_KIND_CONSUMER: "CONSUMER",
}


@dataclass
class Received:
    service: str
    name: str
    kind: str
    trace_id: str
    span_id: str
    parent_id: str
    links: list[tuple[str, str]]
    attributes: dict[str, Any]


def _value(any_value: Any) -> Any:
    which = any_value.WhichOneof("value")
    return getattr(any_value, which) if which else None


@dataclass
class Receiver:
    spans: list[Received] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/traces", self._traces, methods=["POST"])])

    async def _traces(self, request: Request) -> Response:
        body = await request.body()
        if request.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        export = ExportTraceServiceRequest.FromString(body)
        for resource_spans in export.resource_spans:
            attributes = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            service = str(attributes.get("service.name", ""))
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    self.spans.append(
                        Received(
                            service=service,
                            name=span.name,
                            kind=KINDS.get(span.kind, "UNSPECIFIED"),
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            links=[
                                (link.trace_id.hex(), link.span_id.hex()) for link in span.links
                            ],
                            attributes={a.key: _value(a.value) for a in span.attributes},
                        )
                    )
        return Response(
            ExportTraceServiceResponse().SerializeToString(),
            media_type="application/x-protobuf",
        )

    def named(self, name: str, service: str | None = None) -> list[Received]:
        return [
            s for s in self.spans if s.name == name and (service is None or s.service == service)
        ]

    def by_id(self) -> dict[str, Received]:
        return {s.span_id: s for s in self.spans}

    def ancestors(self, span: Received) -> list[Received]:
        """The span's parents, nearest first (as far as they were received)."""
        ids, chain = self.by_id(), []
        while span.parent_id and span.parent_id in ids:
            span = ids[span.parent_id]
            chain.append(span)
        return chain
