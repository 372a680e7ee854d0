"""A partner agent answered by a language model behind any OpenAI-compatible endpoint.

Against a local Ollama (``ollama pull llama3.2`` first; Ollama needs no API key):

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
    AGENTHUB_LLM_BASE_URL=http://127.0.0.1:11434/v1 AGENTHUB_LLM_MODEL=llama3.2 \\
    python examples/llm_partner.py

Against OpenAI:

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
    AGENTHUB_LLM_BASE_URL=https://api.openai.com/v1 AGENTHUB_LLM_MODEL=gpt-4o-mini \\
    AGENTHUB_LLM_API_KEY=sk-... python examples/llm_partner.py

With no model at hand, ``agenthub fake-model`` serves a stand-in whose answers follow from the
prompt (AGENTHUB_LLM_BASE_URL=http://127.0.0.1:8100/v1 AGENTHUB_LLM_MODEL=fake-model).

Optional: AGENTHUB_LLM_SYSTEM_PROMPT, AGENTHUB_LLM_TIMEOUT_SECONDS (default 60). A leader's
``rpc`` call waits about 30 s for an answer; for slower models, start tasks by stream or
notification. Registers on its first run (its identity stays in .agenthub/llm.json,
git-ignored), then serves its endpoint on port 9003; leaders find it by the skill "chat". It
joins every group it is invited to and answers there when a post names it the next speaker
(examples/llm_leader.py). A second one needs its own LLM_NAME, LLM_PORT and LLM_STATE.
"""

from __future__ import annotations

import asyncio
import os
import sys

from agenthub import (
    Agent,
    CallbackPolicy,
    ChatCompletionsHandler,
    KitError,
    LLMConfig,
    LLMConfigError,
)
from agenthub.llm_groups import take_part_in_groups

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("AGENTHUB_TOKEN")
PORT = os.environ.get("LLM_PORT", "9003")
STATE = os.environ.get("LLM_STATE", ".agenthub/llm.json")
NAME = os.environ.get("LLM_NAME", "llm")


async def main() -> None:
    config = LLMConfig.from_env()  # fails fast, before registering, if the model is not set
    handler = ChatCompletionsHandler(config)
    agent = Agent(
        HUB,
        state=STATE,
        handler=handler,
        public_url=f"https://127.0.0.1:{PORT}/",
        # its leaders run on this machine too: let notifications go to loopback (development)
        callbacks=CallbackPolicy(allow_private=True),
    )
    try:
        await agent.join(
            {
                "name": NAME,
                "description": f"answers any text with the language model {config.model}",
                "skills": [{"id": "chat", "name": "Chat", "tags": ["text", "llm"]}],
            },
            registration_token=TOKEN,
        )
        print(f"llm partner {agent.agent_id} at {agent.public_url}: {config.model}", flush=True)
        # it joins the groups it is invited to, and speaks when a post names it next
        groups = asyncio.create_task(take_part_in_groups(agent.hub, handler.model))
        try:
            await agent.serve()  # until Ctrl-C
        finally:
            groups.cancel()
    finally:
        await handler.aclose()


def run() -> int:
    """A setting that cannot work is one line and exit 2, not a traceback."""
    if not PORT.isdigit() or not 1 <= int(PORT) <= 65535:
        print(f"llm_partner: LLM_PORT must be a port number, not {PORT!r}", file=sys.stderr)
        return 2
    try:
        asyncio.run(main())
    except LLMConfigError as exc:
        print(f"llm_partner: {exc}", file=sys.stderr)
        return 2
    except KitError as exc:  # the hub's refusal (a wrong token...): one line, not a traceback
        print(f"llm_partner: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(run())
