"""A real a2a-sdk 1.3 server agent for bridge tests, built as the SDK's samples build one.

``AgentExecutor`` + ``DefaultRequestHandler`` over an ``InMemoryTaskStore``, an in-memory push
notification config store and the SDK's ``BasePushNotificationSender`` (so push notifications
are really POSTed), the card, JSON-RPC and HTTP+JSON routes (v1.0 methods, and v0.3 ones
through the SDK's compat adapters) on a Starlette app. What the executor does depends on the
user's text:

- any text: a task, WORKING, an artifact ``echo`` with a text part echoing the text (and copies of
  the message's data parts), COMPLETED;
- ``ask...``: WORKING, then INPUT_REQUIRED with a question; the next message on that task
  completes it with an ``echo`` artifact of the answer (an answer that is ``ask...`` again
  asks again);
- ``slow...``: WORKING, then up to ``SLOW_SECONDS`` before completing, so a test can cancel it
  (``cancel`` moves it to CANCELED);
- ``reject...``: REJECTED straight from SUBMITTED (an accepted task rejected, for AIP);
  ``quit...``: WORKING, then CANCELED by the agent itself (an end an AIP partner cannot
  report from there); ``crash...``: an error answer (a2a-sdk's InternalError), no task.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import httpx
import uvicorn
from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskStore,
    TaskUpdater,
)
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Part, TaskState
from starlette.applications import Starlette

QUESTION = "What is your answer?"
SLOW_SECONDS = 30.0


class PeerExecutor(AgentExecutor):
    """Echoes the user's text as an ``echo`` artifact; ``ask`` asks first, ``slow`` waits."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        if context.message is None:
            raise ValueError("a message is required")
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        text = context.get_user_input()
        if text.startswith("crash"):  # answered with an error, no task made
            raise RuntimeError("the agent crashed")
        if text.startswith("reject"):  # from submitted: AIP's accepted, then rejected
            await updater.reject(updater.new_agent_message([new_text_part("not for me")]))
            return
        if task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED and text.startswith("ask"):
            await updater.start_work()
            await updater.requires_input(updater.new_agent_message([new_text_part(QUESTION)]))
            return  # an answer that asks again
        if task.status.state != TaskState.TASK_STATE_INPUT_REQUIRED:  # not an answer
            await updater.start_work()
            if text.startswith("quit"):  # the agent cancels its own task while working
                await updater.cancel()
                return
            if text.startswith("ask"):
                question = updater.new_agent_message([new_text_part(QUESTION)])
                await updater.requires_input(question)
                return  # the next message on this task resumes it
            if text.startswith("slow"):
                await asyncio.sleep(SLOW_SECONDS)  # cancel() cancels this wait
        data: list[Part] = [part for part in context.message.parts if part.HasField("data")]
        await updater.add_artifact([new_text_part(text), *data], name="echo")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if context.task_id is None or task is None:
            raise ValueError("no task to cancel")
        await TaskUpdater(event_queue, context.task_id, task.context_id).cancel()


VERSIONS = ("1.0", "0.3")


def agent_card(
    url: str, versions: tuple[str, ...] = VERSIONS, *, streaming: bool = True
) -> AgentCard:
    return AgentCard(
        name="A2A Peer",
        description="an a2a-sdk echo agent with input-required and cancellable tasks",
        version="1.0.0",
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        capabilities=AgentCapabilities(streaming=streaming, push_notifications=True),
        supported_interfaces=[  # one endpoint serves both (``enable_v0_3_compat``)
            AgentInterface(protocol_binding=binding, url=url, protocol_version=v)
            for binding in ("JSONRPC", "HTTP+JSON")  # HTTP+JSON's paths below the same URL
            for v in versions
        ],
        skills=[AgentSkill(id="echo", name="Echo", description="echoes text", tags=["echo"])],
    )


def build_peer_app(
    url: str,
    versions: tuple[str, ...] = VERSIONS,
    task_store: TaskStore | None = None,
    *,
    streaming: bool = True,
) -> Starlette:
    """The peer's app; ``url`` is the JSON-RPC URL its card advertises (served at ``/``),
    with an interface for each of ``versions`` (a client picks 1.0 when it is there);
    ``task_store``: its tasks (a fresh ``InMemoryTaskStore`` unless given, so a test can
    read what the agent says of a task); ``streaming``: whether its card says it streams."""
    card = agent_card(url, versions, streaming=streaming)
    push_client = httpx.AsyncClient(timeout=10.0)
    push_store = InMemoryPushNotificationConfigStore()
    handler = DefaultRequestHandler(
        agent_executor=PeerExecutor(),
        task_store=task_store if task_store is not None else InMemoryTaskStore(),
        agent_card=card,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_client, push_store),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await handler.aclose()
            await push_client.aclose()

    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True),
        *create_rest_routes(handler, enable_v0_3_compat=True),  # last: it ends in /{tenant}
    ]
    return Starlette(routes=routes, lifespan=lifespan)


@contextlib.asynccontextmanager
async def serve_peer(
    versions: tuple[str, ...] = VERSIONS,
    task_store: TaskStore | None = None,
    *,
    streaming: bool = True,
) -> AsyncIterator[str]:
    """Serve a peer on a free loopback port in this loop; yields its base URL (no slash)."""
    # proto IPPROTO_TCP, or asyncio skips TCP_NODELAY on accepted sockets (~40 ms per request)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))  # our port before uvicorn starts, so the card can name it
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(
        build_peer_app(f"{url}/", versions, task_store, streaming=streaming),
        log_config=None,
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(60):  # a hang bound, not a speed one
            while not server.started:
                if task.done():
                    task.result()  # raises what stopped it
                await asyncio.sleep(0.01)
        yield url
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(task, 60)
        sock.close()
