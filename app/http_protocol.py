"""The hub's HTTP protocol: the kit's guarded one (``agenthub.http_guard``: header size and
count, header and body deadlines, each response's head written together with its body) with
the hub's settings and problem+json refusals.

``agenthub serve`` uses this protocol; a proxy in front (deploy/nginx) has limits of its own
too (``large_client_header_buffers``, ``client_header_timeout``, ``client_body_timeout``).
"""

from __future__ import annotations

import json

from agenthub.http_guard import DETAILS, GuardedHttpProtocol, ServerLimits, answer
from app.config import Settings
from app.errors import problem_body


class HubHttpProtocol(GuardedHttpProtocol):
    def refusal(self, status: int) -> bytes:
        """A problem+json; the connection closes after it."""
        body = json.dumps(problem_body(status, DETAILS[status]), separators=(",", ":")).encode()
        return answer(status, "application/problem+json", body)


def protocol_for(settings: Settings) -> type[GuardedHttpProtocol]:
    """The protocol class with the settings' limits (uvicorn takes a class)."""
    limits = ServerLimits(
        max_header_bytes=settings.max_header_bytes,
        max_headers=settings.max_headers,
        header_timeout_seconds=settings.header_timeout_seconds,
        body_timeout_seconds=settings.body_timeout_seconds,
    )
    return limits.protocol(HubHttpProtocol)
