"""``agenthub demo --trace DIR``: the demo's traces, as the OpenTelemetry Collector's file
exporter writes them. Every process of the demo exports OTLP/HTTP (its ``OTEL_*``
variables, set by the runner) to a receiver here on loopback, which appends each export
request to ``DIR/traces.jsonl`` as one line of OTLP JSON (the protobuf's JSON mapping).
Needs the ``otel`` extra (``pip install 'agenthub-hub[otel]'``).
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any

TRACES_FILE = "traces.jsonl"


class TraceFile:
    """The receiver's app (``POST /v1/traces``) and the file it appends to."""

    def __init__(self, folder: Path) -> None:
        from google.protobuf.json_format import MessageToJson  # the otel extra's protobuf
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )

        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / TRACES_FILE
        self.path.write_text("")
        self._request = ExportTraceServiceRequest
        self._answer = ExportTraceServiceResponse().SerializeToString()
        self._json = MessageToJson
        self.exports = 0

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import Response
        from starlette.routing import Route

        async def traces(request: Request) -> Response:
            body = await request.body()
            if request.headers.get("content-encoding") == "gzip":
                body = gzip.decompress(body)
            export = self._request.FromString(body)
            line = json.loads(self._json(export, indent=None))
            with self.path.open("a") as out:
                out.write(json.dumps(_hex_ids(line), separators=(",", ":")) + "\n")
            self.exports += 1
            return Response(self._answer, media_type="application/x-protobuf")

        return Starlette(routes=[Route("/v1/traces", traces, methods=["POST"])])


ID_FIELDS = ("traceId", "spanId", "parentSpanId")


def _hex_ids(export: dict[str, Any]) -> dict[str, Any]:
    """OTLP JSON spells trace and span ids in hex (the protobuf JSON mapping, base64)."""
    for resource_spans in export.get("resourceSpans", []):
        for scope in resource_spans.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for holder in (span, *span.get("links", [])):
                    for name in ID_FIELDS:
                        if holder.get(name):
                            holder[name] = base64.b64decode(holder[name]).hex()
    return export


def otel_env(endpoint: str, service: str) -> dict[str, str]:
    """What makes one of the demo's processes export its traces to ``endpoint``."""
    return {
        "OTEL_SERVICE_NAME": service,
        "OTEL_TRACES_EXPORTER": "otlp",
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_BSP_SCHEDULE_DELAY": "200",
    }


def read_spans(path: Path) -> list[dict[str, Any]]:
    """Every span of an OTLP JSON lines file, flat: its service name beside its fields
    (``traceId``, ``spanId``, ``parentSpanId`` in hex)."""
    spans: list[dict[str, Any]] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        for resource_spans in json.loads(line).get("resourceSpans", []):
            attributes = resource_spans.get("resource", {}).get("attributes", [])
            service = next(
                (a["value"].get("stringValue") for a in attributes if a["key"] == "service.name"),
                "",
            )
            for scope in resource_spans.get("scopeSpans", []):
                for span in scope.get("spans", []):
                    spans.append({**span, "service": service})
    return spans
