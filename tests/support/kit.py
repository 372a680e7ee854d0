"""Partners and live hubs for the kit's point-to-point tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from agenthub import Agent, TaskContext, TaskHandler
from app.config import Settings
from tests.support import LOOPBACK
from tests.support.live import LiveServer


class EchoHandler(TaskHandler):
    """Echoes the command's text back as the product."""

    async def on_start(self, task: TaskContext) -> None:
        if task.text == "refuse":
            await task.reject("I refuse")
            return
        await task.working("echoing")
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}]
        )

    async def on_continue(self, task: TaskContext) -> None:
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}], message="again"
        )


class AskHandler(TaskHandler):
    """Asks a question first, then answers with what it was told."""

    async def on_start(self, task: TaskContext) -> None:
        await task.await_input("what should I echo?")

    async def on_continue(self, task: TaskContext) -> None:
        for i in range(3):
            await task.progress(f"step {i}")
        await task.add_product({"id": "report", "dataItems": [{"type": "text", "text": "a"}]})
        await task.add_product(
            {"id": "report", "dataItems": [{"type": "text", "text": "b"}]}, append=True
        )
        await task.await_completion(message=f"told: {task.text}")


class LiveHub:
    def __init__(self, server: LiveServer, settings: Settings) -> None:
        self.server = server
        self.settings = settings
        self.url = server.url

    async def answered(self, status: int, route: str | None = None) -> int:
        """How many requests (to ``route``) the hub answered with ``status`` so far, from its
        /metrics."""
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            text = (await http.get(f"{self.url}/metrics")).text
        total = 0.0
        for line in text.splitlines():
            if not line.startswith("agenthub_http_requests_total{"):
                continue
            if f'status="{status}"' in line and (route is None or f'route="{route}"' in line):
                total += float(line.rsplit(" ", 1)[1])
        return int(total)


MakeLiveAgent = Callable[..., Awaitable[Agent]]


async def settled(*agents: Agent) -> None:
    """The agents' records trail their calls: wait until the hub has all of them."""
    for agent in agents:
        assert agent.recorder is not None and await agent.recorder.flush(10)


async def hub_task(agent: Agent, task_id: str) -> dict[str, Any]:
    """The hub's record of a task, as ``agent`` sees it."""
    response = await agent.hub.request("GET", f"/v1/tasks/{task_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())
