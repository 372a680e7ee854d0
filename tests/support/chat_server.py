"""The fake OpenAI-compatible chat endpoint of ``agenthub fake-model`` (``app.fake_model``) on
loopback (real uvicorn), answering each ``POST /v1/chat/completions`` with what a test's
``reply`` makes of the system prompt and the user's text; every request it took is kept in
``requests``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from app.fake_model import DEFAULT_MODEL, Reply, chat_app
from tests.support.live import LiveServer


class FakeChatServer:
    def __init__(self, reply: Reply, *, model: str = DEFAULT_MODEL) -> None:
        self.reply = reply
        self.model = model
        self.requests: list[dict[str, Any]] = []
        # the reply as it is when asked: a test may set another one
        app = chat_app(
            lambda system, user: self.reply(system, user), model=model, seen=self.requests.append
        )
        self.server = LiveServer(app)

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    def asked(self, system_contains: str) -> list[str]:
        """The user texts of the requests whose system prompt holds ``system_contains``."""
        return [r["user"] for r in self.requests if system_contains in r["system"]]


@asynccontextmanager
async def fake_chat(reply: Reply, *, model: str = DEFAULT_MODEL) -> AsyncIterator[FakeChatServer]:
    fake = FakeChatServer(reply, model=model)
    await fake.server.start()
    try:
        yield fake
    finally:
        await fake.server.stop()
