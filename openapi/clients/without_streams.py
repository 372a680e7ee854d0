"""The API description the Python client is generated from: ``openapi.json`` without its
``text/event-stream`` operations.

A generated client reads a response whole, so an endless event stream would hang it; the
kit (``pip install agenthub``: ``HubClient.inbox()``, ``HubClient.groups.events(...)``)
is the SSE client, and resumes after a dropped connection. The committed ``openapi.json``
keeps the stream operations.

    python openapi/clients/without_streams.py openapi/openapi.json OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

EVENT_STREAM = "text/event-stream"


def streams(operation: dict[str, Any]) -> bool:
    responses = operation.get("responses", {}).values()
    return any(EVENT_STREAM in response.get("content", {}) for response in responses)


def without_streams(spec: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for path, item in spec["paths"].items():
        kept = {
            key: value
            for key, value in item.items()
            if not (isinstance(value, dict) and "responses" in value and streams(value))
        }
        if any(isinstance(v, dict) and "responses" in v for v in kept.values()):
            paths[path] = kept
    return {**spec, "paths": paths}


def main(source: str, target: str) -> None:
    spec = json.loads(Path(source).read_text(encoding="utf-8"))
    text = json.dumps(without_streams(spec), indent=2, sort_keys=True, ensure_ascii=False)
    Path(target).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
