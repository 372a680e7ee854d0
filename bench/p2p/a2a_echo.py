"""Baseline B's server: an a2a-sdk 1.3 echo agent, built as the SDK's helloworld tutorial shows.

An ``AgentExecutor`` that enqueues one agent text message echoing the user's text, the
``DefaultRequestHandler`` over an ``InMemoryTaskStore``, the agent card and JSON-RPC routes on
a Starlette app. ``A2A_ECHO_URL`` is the URL the card advertises (uvicorn picks the port).
"""

from __future__ import annotations

import os

from a2a.helpers import new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from starlette.applications import Starlette

PUBLIC_URL = os.environ.get("A2A_ECHO_URL", "http://127.0.0.1:9999")


class EchoAgentExecutor(AgentExecutor):
    """Answers every message with one message carrying the same text."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        await event_queue.enqueue_event(new_text_message(context.get_user_input()))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError("an echo has nothing to cancel")


def agent_card(url: str) -> AgentCard:
    return AgentCard(
        name="Echo Agent",
        description="echoes text back for the p2p benchmark",
        version="0.0.1",
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        capabilities=AgentCapabilities(streaming=True),
        supported_interfaces=[AgentInterface(protocol_binding="JSONRPC", url=url)],
        skills=[AgentSkill(id="echo", name="Echo", description="echoes text", tags=["echo"])],
    )


def build_app(url: str = PUBLIC_URL) -> Starlette:
    card = agent_card(url)
    handler = DefaultRequestHandler(
        agent_executor=EchoAgentExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    return Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")])


app = build_app()
