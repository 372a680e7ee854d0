"""An echo partner agent, written with the kit as any agent developer would.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me python examples/echo_partner.py

Registers once (key and id kept in ./echo-agent/), then serves its endpoint on port 9001.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import uvicorn

from agenthub import Agent, AgentKey, TaskContext, TaskHandler

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
PORT = int(os.environ.get("ECHO_PORT", "9001"))
STATE = Path(os.environ.get("ECHO_STATE_DIR", "echo-agent"))


class Echo(TaskHandler):
    async def on_start(self, task: TaskContext) -> None:
        if not task.text:
            await task.reject("send me some text to echo")
            return
        await task.working("echoing")
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}]
        )

    async def on_continue(self, task: TaskContext) -> None:
        await task.await_completion(
            [{"id": "echo", "dataItems": [{"type": "text", "text": task.text}]}],
            message="echoed again",
        )


async def main() -> None:
    identity = STATE / "identity.json"
    saved = json.loads(identity.read_text()) if identity.exists() else {}
    agent = Agent(
        HUB,
        key=AgentKey.load_or_create(STATE / "key.pem"),
        handler=Echo(),
        agent_id=saved.get("agentId"),
        public_url=f"http://127.0.0.1:{PORT}/",
    )
    if not saved:
        card = await agent.register(
            {
                "name": "echo",
                "description": "echoes any text back as its product",
                "skills": [{"id": "echo", "name": "Echo", "tags": ["text", "demo"]}],
            },
            registration_token=TOKEN,
        )
        identity.write_text(json.dumps({"agentId": card.id}))
    print(f"echo partner {agent.agent_id} at {agent.public_url}", flush=True)
    server = uvicorn.Server(uvicorn.Config(agent, host="127.0.0.1", port=PORT, log_level="warning"))
    await server.serve()


if __name__ == "__main__":
    asyncio.run(main())
