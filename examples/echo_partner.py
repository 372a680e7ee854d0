"""An echo partner agent, written with the kit as any agent developer would.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me python examples/echo_partner.py

The first run registers it (the token is needed then only); its key, id and the hub's pinned
key stay in .agenthub/echo.json (git-ignored), so the next runs are the same agent. It serves
its endpoint on port 9001 (``ECHO_PORT``) until Ctrl-C. ``ECHO_A2A=1`` makes it an A2A server
too (``pip install 'agenthub[a2a]'``): a2a-sdk's clients call it at the same URL. A refusal
(a wrong token, say) is one line and exit 1.
"""

from __future__ import annotations

import asyncio
import os

from agenthub import Agent, CallbackPolicy, KitError, TaskContext, TaskHandler

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
PORT = int(os.environ.get("ECHO_PORT", "9001"))
STATE = os.environ.get("ECHO_STATE", ".agenthub/echo.json")
A2A = os.environ.get("ECHO_A2A", "") == "1"
CARD = {
    "name": "echo",
    "description": "echoes any text back as its product",
    "skills": [{"id": "echo", "name": "Echo", "tags": ["text", "demo"]}],
}


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
    agent = Agent(
        HUB,
        state=STATE,
        handler=Echo(),
        public_url=f"https://127.0.0.1:{PORT}/",
        # its leaders run on this machine too: let notifications go to loopback (development)
        callbacks=CallbackPolicy(allow_private=True),
        a2a=A2A,
    )
    await agent.join(CARD, registration_token=TOKEN)
    print(f"echo partner {agent.agent_id} at {agent.public_url}", flush=True)
    await agent.serve()  # until Ctrl-C


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KitError as exc:  # the hub's refusal (a wrong token...): one line, not a traceback
        raise SystemExit(f"echo_partner: {exc}") from None
