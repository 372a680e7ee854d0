"""What every agent of the demo team shares: settings, registration, and its narration.

Each agent prints one JSON line per step on stdout; ``agenthub demo`` turns those lines into
its transcript. Run alone, an agent just prints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Coroutine
from typing import Any

import uvicorn

import agenthub.tracing as tracing
from agenthub import Agent, AgentKey, CallbackPolicy, TaskHandler

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
LOOPBACK = CallbackPolicy(allow_private=True)  # notifications may go to 127.0.0.1


def run(main: Coroutine[Any, Any, None]) -> None:
    """``asyncio.run(main)``, with SIGTERM and SIGINT cancelling ``main`` instead of killing
    the process, so its ``finally`` blocks run: records still queued reach the hub."""

    async def guarded() -> None:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await main

    tracing.configure("agenthub-demo")  # with --trace, the runner sets OTEL_* for each
    try:
        asyncio.run(guarded())
    finally:
        tracing.shutdown()  # the spans still queued go


def say(who: str, what: str, **details: Any) -> None:
    """One step of the story: who did what (and the details that matter)."""
    print(json.dumps({"t": round(time.time(), 6), "who": who, "what": what, **details}), flush=True)


async def join_hub(
    name: str,
    description: str,
    skills: list[dict[str, Any]],
    *,
    port: int,
    handler: TaskHandler | None = None,
) -> tuple[Agent, asyncio.Task[None], uvicorn.Server]:
    """Register with the hub and serve the agent's endpoint (AIP calls, notifications)."""
    agent = Agent(
        HUB,
        key=AgentKey.generate(),
        handler=handler,
        public_url=f"https://127.0.0.1:{port}/",  # mutual TLS, certificates from the hub
        callbacks=LOOPBACK,  # the whole team runs on this machine
    )
    await agent.register(
        {"name": name, "description": description, "skills": skills}, registration_token=TOKEN
    )
    options = await agent.server_options()
    server = uvicorn.Server(
        uvicorn.Config(
            agent, host="127.0.0.1", port=port, log_level="warning", lifespan="off", **options
        )
    )
    serving = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 (uvicorn offers no event for it)
        await asyncio.sleep(0.02)
    say(name, "registered", agentId=agent.agent_id, skills=[s["id"] for s in skills])
    return agent, serving, server


async def leave_hub(agent: Agent, serving: asyncio.Task[None], server: uvicorn.Server) -> None:
    """Stop serving the endpoint and close the agent's clients."""
    server.should_exit = True
    await serving
    await agent.aclose()


def text_of(message: dict[str, Any]) -> str:
    """The text of a message's first text item (or of its first product's)."""
    items = message.get("dataItems") or []
    for product in message.get("products") or []:
        items = items or product.get("dataItems") or []
    return next((i["text"] for i in items if i.get("type") == "text"), "")


async def until_active(agent: Agent, group_id: str, members: list[str]) -> None:
    for _ in range(200):
        states = {m.agent_id: m.state for m in await agent.hub.groups.members(group_id)}
        if all(states.get(m) == "active" for m in members):
            return
        await asyncio.sleep(0.05)
    raise RuntimeError(f"members of {group_id} did not become active")
