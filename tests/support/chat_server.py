"""A fake OpenAI-compatible chat endpoint on loopback (real uvicorn), answering each
``POST /v1/chat/completions`` with what a test's ``reply`` makes of the system prompt and
the user's text; every request it took is kept in ``requests``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.support.live import LiveServer

Reply = Callable[[str, str], str]
"""(system prompt, the last user message) -> the assistant's text."""


class FakeChatServer:
    def __init__(self, reply: Reply, *, model: str = "fake-model") -> None:
        self.reply = reply
        self.model = model
        self.requests: list[dict[str, Any]] = []
        app = Starlette(routes=[Route("/v1/chat/completions", self.completions, methods=["POST"])])
        self.server = LiveServer(app)

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    def asked(self, system_contains: str) -> list[str]:
        """The user texts of the requests whose system prompt holds ``system_contains``."""
        return [r["user"] for r in self.requests if system_contains in r["system"]]

    async def completions(self, request: Request) -> Response:
        body = await request.json()
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        users = [m["content"] for m in messages if m.get("role") == "user"]
        if body.get("model") != self.model or not users:
            return JSONResponse({"error": {"message": "bad request"}}, status_code=400)
        self.requests.append({"system": system, "user": users[-1]})
        content = self.reply(system, users[-1])
        return JSONResponse(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "model": self.model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
            }
        )


@asynccontextmanager
async def fake_chat(reply: Reply, *, model: str = "fake-model") -> AsyncIterator[FakeChatServer]:
    fake = FakeChatServer(reply, model=model)
    await fake.server.start()
    try:
        yield fake
    finally:
        await fake.server.stop()
