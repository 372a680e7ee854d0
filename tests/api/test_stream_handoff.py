"""StreamHandoff writes a stream its route handed over only when nothing else answered."""

from __future__ import annotations

from typing import Any

import pytest

from app.middleware import HANDOFF, StreamHandoff
from app.streams.sse import SendWatchdog


class Writer:
    """What a route hands over (``StreamWriter``'s two calls), recording which was made."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def run(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls.append("run")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def release(self) -> None:
        self.calls.append("release")

    def stop(self) -> None:
        self.calls.append("stop")


async def drive(after_handoff: str) -> tuple[Writer, list[int]]:
    writer, statuses = Writer(), []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        scope[HANDOFF] = writer  # what HubEventStream does when the route calls it
        if after_handoff == "answer":  # e.g. an error handler's response
            await send({"type": "http.response.start", "status": 400, "headers": []})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope: dict[str, Any] = {"type": "http", "method": "GET", "path": "/", "route": object()}
    await StreamHandoff(app)(scope, receive, send)
    assert "route" not in scope or after_handoff != "nothing"
    return writer, statuses


async def test_a_stream_handed_over_is_written_on_the_servers_send() -> None:
    writer, statuses = await drive("nothing")
    assert writer.calls == ["run"] and statuses == [200]


async def test_a_request_answered_after_the_handoff_releases_the_stream() -> None:
    writer, statuses = await drive("answer")
    assert writer.calls == ["release"] and statuses == [400]  # one response, not two


async def test_a_request_failing_after_the_handoff_releases_the_stream() -> None:
    writer = Writer()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        scope[HANDOFF] = writer
        raise RuntimeError("after the route")  # e.g. a dependency's clean-up failing

    with pytest.raises(RuntimeError):
        await StreamHandoff(app)({"type": "http"}, None, None)  # type: ignore[arg-type]
    assert writer.calls == ["release"]  # its lease let go, nothing written


async def test_a_stream_that_arrives_while_the_server_shuts_down_ends_at_once() -> None:
    watchdog = SendWatchdog()
    early = Writer()
    watchdog.watch(early)  # type: ignore[arg-type]
    assert watchdog.end_all() == 1 and early.calls == ["stop"]
    late = Writer()
    watchdog.watch(late)  # type: ignore[arg-type]  # past its route after end_all
    assert late.calls == ["stop"]
