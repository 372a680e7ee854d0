"""A kit partner as an A2A server, beside its AIP JSON-RPC on the same endpoint.

a2a-sdk does the A2A side (``DefaultRequestHandler``: tasks, streams, resubscription, push
notifications; ``JsonRpcDispatcher``: the v1.0 methods and, through its compatibility layer,
the v0.3 ones). The bridge is an ``AgentExecutor`` that drives the partner's own
``PartnerRuntime``: a message on a new task is an AIP ``start``, one on a task waiting for
input a ``continue``, a cancel a ``cancel``; the task's AIP events come back as A2A status
and artifact updates (``agenthub.a2a.convert`` says how states map).

Every A2A context is a session at the hub, a *bridged* one: the A2A caller records nothing,
so the partner records the leader side too, as the bridge (its commands carry its own id;
the session names the caller when it proved to be a registered agent).
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from a2a.auth.user import User
from a2a.helpers import new_task
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes.common import ServerCallContextBuilder
from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import AgentCard, Message, TaskState
from a2a.utils.errors import (
    A2AError,
    InvalidParamsError,
    TaskNotFoundError,
    UnsupportedOperationError,
)
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message as AsgiMessage

from agenthub.a2a.convert import A2A_STATE_OF, artifact_of, items_of, parts_of
from agenthub.partner import PartnerTask
from agenthub.protocol.jsonrpc import RpcErrorCode
from agenthub.protocol.messages import TaskCommand, TaskCommandType
from agenthub.protocol.messages import TaskState as AipState
from agenthub.recorder import HubRecorder
from agenthub.runtime import PartnerRuntime, RpcFault
from agenthub.task_events import task_events

CALLER_KEY = "agenthub.caller"
"""The scope key under which the endpoint hands the authenticated caller to the bridge."""
RECORD_WAIT_SECONDS = 2.0
"""The longest a new task waits for the hub's record to catch up (``HubRecorder.admit_any``)."""
MAX_CONTEXTS = 10_000
"""Contexts whose hub session the bridge remembers; an older one is looked up again."""

SessionOpener = Callable[[str, dict[str, Any]], Awaitable[Any]]


class CallerUser(User):
    """The caller as a2a-sdk's user: its agent id, or ``anonymous@<address>``; a2a-sdk keeps
    each one's tasks and push configs apart by this name."""

    def __init__(self, name: str, registered: bool) -> None:
        self.name = name
        self.registered = registered

    @property
    def is_authenticated(self) -> bool:
        return self.registered

    @property
    def user_name(self) -> str:
        return self.name


class _CallerContext(ServerCallContextBuilder):
    def build(self, request: Request) -> ServerCallContext:
        user = request.scope[CALLER_KEY]
        return ServerCallContext(user=user, state={"headers": dict(request.headers)})


class A2ABridge:
    """The partner's A2A face: answers the A2A methods of a request the endpoint has
    authenticated, by the partner's runtime."""

    def __init__(
        self,
        *,
        agent_id: str,
        runtime: PartnerRuntime,
        recorder: HubRecorder | None,
        open_session: SessionOpener | None,
        push_client: Any,
        push_url_ok: Callable[[str], Awaitable[bool]],
        card: AgentCard,
    ) -> None:
        self.agent_id = agent_id
        self.runtime = runtime
        self.recorder = recorder
        self.open_session = open_session
        self._sessions: OrderedDict[tuple[str, str], str] = OrderedDict()
        configs = InMemoryPushNotificationConfigStore()
        self.handler = DefaultRequestHandler(
            agent_executor=_Executor(self),
            task_store=InMemoryTaskStore(),
            agent_card=card,
            push_config_store=configs,
            push_sender=BasePushNotificationSender(
                push_client, configs, push_url_validator=push_url_ok
            ),
            push_url_validator=push_url_ok,
        )
        self.dispatcher = JsonRpcDispatcher(
            self.handler, context_builder=_CallerContext(), enable_v0_3_compat=True
        )

    async def answer(self, request: Request, body: bytes, caller: CallerUser) -> Response:
        """Answer the A2A request whose ``body`` the endpoint already read (given again to
        a2a-sdk; what comes after it, a disconnect, is the request's own)."""
        sent = False

        async def receive() -> AsgiMessage:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await request.receive()

        replayed = Request({**request.scope, CALLER_KEY: caller}, receive)
        return await self.dispatcher.handle_requests(replayed)

    # -- the hub's record -------------------------------------------------------------------

    def session_of(self, caller: CallerUser, context_id: str) -> str:
        """The hub session of an A2A context (of this caller): opened, the first time, in
        the background; the recorder holds the session's records until it is."""
        key = (caller.user_name, context_id)
        known = self._sessions.get(key)
        if known is not None:
            self._sessions.move_to_end(key)
            return known
        digest = hashlib.sha256(f"{caller.user_name}\n{context_id}".encode()).hexdigest()
        session_id = f"a2a-{digest[:40]}"
        self._sessions[key] = session_id
        while len(self._sessions) > MAX_CONTEXTS:
            self._sessions.popitem(last=False)
        if self.recorder is not None and self.open_session is not None:
            bridge: dict[str, Any] = {"protocol": "a2a", "contextId": context_id}
            if caller.registered:
                bridge["callerId"] = caller.user_name
            body = {
                "id": session_id,
                "receivers": [{"agentId": self.agent_id, "mode": "p2p"}],
                "bridge": bridge,
            }
            self.recorder.opening(session_id, self.open_session(session_id, body))
        return session_id

    async def apply(
        self,
        name: TaskCommandType,
        *,
        caller: CallerUser,
        session_id: str,
        task_id: str,
        message: Message | None = None,
    ) -> PartnerTask:
        """A command on the caller's behalf, applied to the runtime as the caller's, then
        recorded at the hub as the bridge's (the leader side of the bridged session; the hub
        folds a task's records by ``sentAt``). A command the runtime refuses is recorded
        nowhere, and is the A2A error it is."""
        wire: dict[str, Any] = {
            "id": f"cmd-{uuid.uuid4().hex}",
            "sentAt": datetime.now(UTC),
            "senderRole": "leader",
            "senderId": self.agent_id,
            "sessionId": session_id,
            "command": name,
            "taskId": task_id,
            "dataItems": (items_of(message.parts) if message is not None else None) or None,
        }
        if name == TaskCommandType.START:
            wire["partnerId"] = self.agent_id
        try:
            recorded = TaskCommand.model_validate(wire)
            command = recorded.model_copy(update={"sender_id": caller.user_name})
            task, _ = await self.runtime.apply(command, caller_id=caller.user_name)
        except ValidationError as exc:
            raise InvalidParamsError(message=f"The message does not fit: {exc}") from exc
        except RpcFault as fault:
            raise _a2a_error(fault) from fault
        if self.recorder is not None:
            self.recorder.record(session_id, recorded.to_wire())
        return task


def _a2a_error(fault: RpcFault) -> A2AError:
    """The runtime's refusal as the A2A error of the same meaning."""
    if fault.code == RpcErrorCode.TASK_NOT_FOUND:
        return TaskNotFoundError(message=fault.message)
    if fault.code == RpcErrorCode.INVALID_PARAMS:
        return InvalidParamsError(message=fault.message)
    return UnsupportedOperationError(message=fault.message)


class _Executor(AgentExecutor):
    """Each A2A request, as AIP commands to the partner's runtime; the task's events until
    it waits for its caller or ends, as A2A events."""

    def __init__(self, bridge: A2ABridge) -> None:
        self.bridge = bridge

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        bridge, runtime = self.bridge, self.bridge.runtime
        caller = _caller(context)
        task_id, context_id = str(context.task_id), str(context.context_id)
        known = runtime.task_of(caller.user_name, task_id)
        session_id = known.session_id if known is not None else None
        session_id = session_id or bridge.session_of(caller, context_id)
        if known is None:
            if bridge.recorder is not None:  # a new context each time: no session's backlog
                await bridge.recorder.admit_any(RECORD_WAIT_SECONDS)
            name, after = TaskCommandType.START, 0
            await event_queue.enqueue_event(
                new_task(task_id, context_id, TaskState.TASK_STATE_SUBMITTED)
            )
        else:
            name, after = TaskCommandType.CONTINUE, known.next_seq - 1
        task = await bridge.apply(
            name, caller=caller, session_id=session_id, task_id=task_id, message=context.message
        )
        await _relay(task, after, TaskUpdater(event_queue, task_id, context_id), bridge, caller)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        bridge, runtime = self.bridge, self.bridge.runtime
        caller = _caller(context)
        task_id, context_id = str(context.task_id), str(context.context_id)
        known = runtime.task_of(caller.user_name, task_id)
        updater = TaskUpdater(event_queue, task_id, context_id)
        if known is None or known.session_id is None:
            await updater.cancel()
            return
        after = known.next_seq - 1
        task = await bridge.apply(
            TaskCommandType.CANCEL, caller=caller, session_id=known.session_id, task_id=task_id
        )
        await _relay(task, after, updater, bridge, caller)


def _caller(context: RequestContext) -> CallerUser:
    user = context.call_context.user
    assert isinstance(user, CallerUser)
    return user


async def _relay(
    task: PartnerTask, after: int, updater: TaskUpdater, bridge: A2ABridge, caller: CallerUser
) -> None:
    """The task's AIP events after ``after`` as A2A events, until the task waits for its
    caller or ends. ``awaiting-completion`` is completed on the caller's behalf: an A2A
    caller has no ``complete`` (``agenthub.a2a.convert``)."""
    sent_products: set[str] = set()
    async for item in task_events(task, after_seq=after):
        if item is None:
            continue
        _, event = item
        kind = event.get("type")
        if kind == "product-chunk":
            product = event["product"]
            sent_products.add(product["id"])
            await _artifact(updater, product, event.get("append", False), event["lastChunk"])
            continue
        state = AipState(event["status"]["state"])
        message = _status_message(updater, event["status"].get("dataItems"))
        if kind == "task-status-update" or state in (AipState.ACCEPTED, AipState.WORKING):
            if state != AipState.ACCEPTED:  # submitted is where the A2A task began
                await updater.update_status(A2A_STATE_OF[state], message)
            continue
        for product in event.get("products") or ():
            if product["id"] not in sent_products:
                sent_products.add(product["id"])
                await _artifact(updater, product, False, True)
        if state == AipState.AWAITING_COMPLETION:
            assert task.session_id is not None
            await bridge.apply(
                TaskCommandType.COMPLETE, caller=caller, session_id=task.session_id, task_id=task.id
            )
            continue
        await updater.update_status(A2A_STATE_OF[state], message)
        if state == AipState.AWAITING_INPUT:
            return
    # the events ended with the task


async def _artifact(
    updater: TaskUpdater, product: dict[str, Any], append: bool, last_chunk: bool
) -> None:
    artifact = artifact_of(product)
    await updater.add_artifact(
        list(artifact.parts),
        artifact_id=artifact.artifact_id,
        name=artifact.name or None,
        append=append,
        last_chunk=last_chunk,
    )


def _status_message(updater: TaskUpdater, items: list[dict[str, Any]] | None) -> Message | None:
    if not items:
        return None
    return updater.new_agent_message(parts_of(items))


__all__ = ["CALLER_KEY", "A2ABridge", "CallerUser"]
