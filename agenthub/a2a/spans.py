"""A kit partner's A2A server spans: one SERVER span per A2A method, named after it as
OpenTelemetry's A2A conventions name them (``SendMessage``, ``GetTask``…), with the task,
its context as the conversation, the agent, and the state the answer shows. Both bindings
(JSON-RPC and HTTP+JSON) reach the same request handler, so both are traced here.

A stream's span lasts as long as the stream: it is made current for each step the stream
takes (the executor started on its first step runs under it) and ends when the stream does.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from typing import Any

from a2a.server.context import ServerCallContext
from a2a.server.events import Event
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    ListTasksResponse,
    Message,
    SendMessageRequest,
    SubscribeToTaskRequest,
    Task,
    TaskState,
    TaskStatusUpdateEvent,
)
from opentelemetry.trace import Span

import agenthub.tracing as tracing


class TracedRequestHandler(DefaultRequestHandler):
    """a2a-sdk's request handler, each A2A method in a SERVER span named after it."""

    agent_id: str | None = None
    agent_name: str | None = None

    def _attributes(
        self,
        method: str,
        task_id: str | None,
        context_id: str | None = None,
        message_id: str | None = None,
    ) -> dict[str, Any]:
        return {
            "a2a.method.name": method,
            "a2a.message.id": message_id or None,
            "a2a.task.id": task_id or None,
            "gen_ai.conversation.id": context_id or None,
            "gen_ai.agent.id": self.agent_id,
            "gen_ai.agent.name": self.agent_name,
        }

    def _sent(self, method: str, params: SendMessageRequest) -> dict[str, Any]:
        message = params.message
        return self._attributes(method, message.task_id, message.context_id, message.message_id)

    async def on_message_send(
        self, params: SendMessageRequest, context: ServerCallContext
    ) -> Task | Message:
        attributes = self._sent("SendMessage", params)
        with tracing.span("SendMessage", kind="SERVER", attributes=attributes) as span:
            answer: Task | Message = await super().on_message_send(params, context)
            _shown(span, answer)
            return answer

    async def on_get_task(self, params: GetTaskRequest, context: ServerCallContext) -> Task | None:
        attributes = self._attributes("GetTask", params.id)
        with tracing.span("GetTask", kind="SERVER", attributes=attributes) as span:
            answer: Task | None = await super().on_get_task(params, context)
            _shown(span, answer)
            return answer

    async def on_cancel_task(
        self, params: CancelTaskRequest, context: ServerCallContext
    ) -> Task | None:
        attributes = self._attributes("CancelTask", params.id)
        with tracing.span("CancelTask", kind="SERVER", attributes=attributes) as span:
            answer: Task | None = await super().on_cancel_task(params, context)
            _shown(span, answer)
            return answer

    async def on_list_tasks(
        self, params: ListTasksRequest, context: ServerCallContext
    ) -> ListTasksResponse:
        attributes = self._attributes("ListTasks", None, params.context_id)
        with tracing.span("ListTasks", kind="SERVER", attributes=attributes):
            listed: ListTasksResponse = await super().on_list_tasks(params, context)
            return listed

    async def on_message_send_stream(
        self, params: SendMessageRequest, context: ServerCallContext
    ) -> AsyncGenerator[Event]:
        attributes = self._sent("SendStreamingMessage", params)
        span = tracing.started("SendStreamingMessage", kind="SERVER", attributes=attributes)
        async for event in _stepped(span, super().on_message_send_stream(params, context)):
            yield event

    async def on_subscribe_to_task(
        self, params: SubscribeToTaskRequest, context: ServerCallContext
    ) -> AsyncGenerator[Event]:
        attributes = self._attributes("SubscribeToTask", params.id)
        span = tracing.started("SubscribeToTask", kind="SERVER", attributes=attributes)
        async for event in _stepped(span, super().on_subscribe_to_task(params, context)):
            yield event


async def _stepped(span: Span, events: AsyncGenerator[Event]) -> AsyncGenerator[Event]:
    """``events``, each step taken with ``span`` current; the span ends with them."""
    try:
        while True:
            with tracing.within(span):
                try:
                    event = await anext(events)
                except StopAsyncIteration:
                    return
            _shown(span, event)
            yield event
    finally:
        await events.aclose()
        span.end()


def _shown(span: Span, answer: Any) -> None:
    """Put on ``span`` the task and state an answer (a task or a status event) shows."""
    if not span.is_recording():
        return
    status = None
    found: Mapping[str, Any] = {}
    if isinstance(answer, Task):
        status = answer.status
        found = {"a2a.task.id": answer.id, "gen_ai.conversation.id": answer.context_id}
    elif isinstance(answer, TaskStatusUpdateEvent):
        status = answer.status
        found = {"a2a.task.id": answer.task_id, "gen_ai.conversation.id": answer.context_id}
    if status is not None:
        found = {**found, "a2a.task.state": TaskState.Name(status.state)}
    tracing.set_attributes(span, {k: v for k, v in found.items() if v})
