"""A kit partner as an A2A server, beside its AIP JSON-RPC on the same endpoint.

a2a-sdk does the A2A side (``DefaultRequestHandler``: tasks, streams, resubscription, push
configs; ``JsonRpcDispatcher``: the v1.0 methods and, through its compatibility layer, the
v0.3 ones). The bridge is an ``AgentExecutor`` that drives the partner's own
``PartnerRuntime``: a message on a new task is an AIP ``start``, one on a task waiting for
input a ``continue``, a cancel a ``cancel``; the task's AIP events come back as A2A status
and artifact updates (``agenthub.a2a.relay``; ``agenthub.a2a.convert`` says how states map).

Every A2A context is a session at the hub, a *bridged* one: the A2A caller records nothing,
so the partner records the leader side too, as the bridge (its commands carry its own id;
the session names the caller when it proved who it is: a registered agent, or an application
the operator registered). The session is opened by its first records once the context's first
task is accepted by the runtime: their batch carries the bridge (``HubRecorder.open_bridge``),
and the hub opens the session in the same transaction as it stores them.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from a2a.auth.user import User
from a2a.helpers import new_task
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.routes.common import ServerCallContextBuilder
from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher
from a2a.server.routes.rest_routes import create_rest_routes
from a2a.server.tasks import InMemoryPushNotificationConfigStore, TaskUpdater
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
from starlette.routing import Router
from starlette.types import Message as AsgiMessage
from starlette.types import Receive, Scope, Send

from agenthub.a2a.convert import items_of
from agenthub.a2a.push import PinnedPushSender
from agenthub.a2a.relay import Speakers, relay
from agenthub.a2a.spans import TracedRequestHandler
from agenthub.a2a.task_store import BoundedTaskStore
from agenthub.callbacks import CallbackPolicy
from agenthub.commands import leader_command
from agenthub.partner import PartnerTask
from agenthub.protocol.jsonrpc import RpcErrorCode
from agenthub.protocol.messages import TaskCommandType
from agenthub.protocol.oauth import ClientKind
from agenthub.recorder import HubRecorder
from agenthub.runtime import IDLE_TASK_SECONDS, PartnerRuntime, RpcFault

CALLER_KEY = "agenthub.caller"
"""The scope key under which the endpoint hands the authenticated caller to the bridge."""
RECORD_WAIT_SECONDS = 2.0
"""The longest a new task waits for the hub's record to catch up (``HubRecorder.admit_any``);
past it the task is refused, to be sent again later."""
MAX_CONTEXTS = 10_000
"""Contexts whose hub session the bridge knows it opened; an older one's records carry its
bridge again (the hub keeps the session that is there)."""


class CallerUser(User):
    """The caller as a2a-sdk's user: its agent id, the id of an application the operator
    registered (``kind``, proved by the hub's OAuth token), or a name of one anonymous
    request; a2a-sdk keeps each one's tasks and push configs apart by this name."""

    def __init__(self, name: str, registered: bool, kind: ClientKind = "agent") -> None:
        self.name = name
        self.registered = registered
        self.kind = kind

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
        callbacks: CallbackPolicy,
        push_url_ok: Callable[[str], Awaitable[bool]],
        card: AgentCard,
    ) -> None:
        self.agent_id = agent_id
        self.runtime = runtime
        self.recorder = recorder
        self.speakers = Speakers()
        self._opened: OrderedDict[str, None] = OrderedDict()
        configs = InMemoryPushNotificationConfigStore()
        self.pushes = PinnedPushSender(configs, callbacks)
        self.tasks = BoundedTaskStore(configs)
        self.handler = TracedRequestHandler(
            agent_executor=_Executor(self),
            task_store=self.tasks,
            agent_card=card,
            push_config_store=configs,
            push_sender=self.pushes,
            push_url_validator=push_url_ok,
            interrupted_task_timeout=IDLE_TASK_SECONDS,
        )
        self.handler.agent_id, self.handler.agent_name = agent_id, card.name or None
        self.dispatcher = JsonRpcDispatcher(
            self.handler, context_builder=_CallerContext(), enable_v0_3_compat=True
        )
        # A2A's HTTP+JSON binding, by a2a-sdk's own routes (v1.0, and v0.3's under /v1)
        self.rest = Router(
            routes=create_rest_routes(
                self.handler, context_builder=_CallerContext(), enable_v0_3_compat=True
            )
        )

    async def aclose(self) -> None:
        await self.handler.aclose()
        await self.pushes.aclose()

    async def answer(self, request: Request, body: bytes, caller: CallerUser) -> Response:
        """Answer the A2A request whose ``body`` the endpoint already read (given again to
        a2a-sdk; what comes after it, a disconnect, is the request's own)."""
        replayed = Request({**request.scope, CALLER_KEY: caller}, _replayed(body, request.receive))
        return await self.dispatcher.handle_requests(replayed)

    async def answer_rest(
        self, scope: Scope, receive: Receive, send: Send, body: bytes, caller: CallerUser
    ) -> None:
        """Answer an HTTP+JSON request (its path below the binding's URL) whose ``body`` the
        endpoint already read, by a2a-sdk's REST routes."""
        await self.rest({**scope, CALLER_KEY: caller}, _replayed(body, receive), send)

    # -- the hub's record -------------------------------------------------------------------

    @staticmethod
    def session_id_of(caller: CallerUser, context_id: str) -> str:
        """The hub session of an A2A context of this caller: the same after a restart."""
        digest = hashlib.sha256(f"{caller.user_name}\n{context_id}".encode()).hexdigest()
        return f"a2a-{digest[:40]}"

    def _open(self, caller: CallerUser, context_id: str, session_id: str) -> None:
        """Have the session's first records open it at the hub, the first time."""
        if session_id in self._opened:
            self._opened.move_to_end(session_id)
            return
        self._opened[session_id] = None
        while len(self._opened) > MAX_CONTEXTS:
            self._opened.popitem(last=False)
        if self.recorder is None:
            return
        bridge: dict[str, Any] = {"protocol": "a2a", "contextId": context_id}
        if caller.registered:
            bridge["callerId"] = caller.user_name
        if caller.registered and caller.kind != "agent":  # agent: the default, which a hub
            bridge["callerKind"] = caller.kind  # that knows no callerKind takes too
        self.recorder.open_bridge(session_id, bridge)

    async def apply(
        self,
        name: TaskCommandType,
        *,
        caller: CallerUser,
        context_id: str,
        session_id: str,
        task_id: str,
        message: Message | None = None,
    ) -> PartnerTask:
        """A command on the caller's behalf, applied to the runtime as the caller's, then
        recorded at the hub as the bridge's (the leader side of the bridged session; the hub
        folds a task's records by ``sentAt``). A command the runtime refuses is recorded
        nowhere, and is the A2A error it is; one it takes is queued before the moves it
        makes, in the order it was sent (a command queued after its own move reaches the
        hub sorting before what the task has, and is folded again there, one at a time);
        a start opens the session first."""
        try:
            recorded = leader_command(
                name,
                sender_id=self.agent_id,
                session_id=session_id,
                task_id=task_id,
                partner_id=self.agent_id if name == TaskCommandType.START else None,
                data_items=(items_of(message.parts) if message is not None else None) or None,
            )
        except ValidationError as exc:
            raise InvalidParamsError(message=f"The message does not fit: {exc}") from exc
        command = recorded.model_copy(update={"sender_id": caller.user_name})

        def taken() -> None:
            if self.recorder is not None:
                if name == TaskCommandType.START:
                    self._open(caller, context_id, session_id)
                self.recorder.record(session_id, recorded.to_wire())

        try:
            task, _ = await self.runtime.apply(command, caller_id=caller.user_name, taken=taken)
        except ValidationError as exc:
            raise InvalidParamsError(message=f"The message does not fit: {exc}") from exc
        except RpcFault as fault:
            raise _a2a_error(fault) from fault
        return task


def _replayed(body: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read given again first (what comes after it, a
    disconnect, is the request's own)."""
    sent = False

    async def again() -> AsgiMessage:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


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
        bridge = self.bridge
        caller, task_id, context_id = _ids(context)
        known = bridge.runtime.task_of(caller.user_name, task_id)
        if known is not None and known.session_id is not None:
            name, after, session_id = TaskCommandType.CONTINUE, known.next_seq - 1, known.session_id
        else:
            recorder = bridge.recorder
            if recorder is not None and not await recorder.admit_any(RECORD_WAIT_SECONDS):
                raise UnsupportedOperationError(
                    message="The partner's record at the hub is behind; send it again shortly."
                )
            name, after = TaskCommandType.START, 0
            session_id = bridge.session_id_of(caller, context_id)
        speaker = bridge.speakers.take(caller.user_name, task_id)
        task = await bridge.apply(
            name,
            caller=caller,
            context_id=context_id,
            session_id=session_id,
            task_id=task_id,
            message=context.message,
        )
        if name == TaskCommandType.START:  # its history starts with the caller's message,
            history = [context.message] if context.message is not None else []  # as a2a-sdk's
            await event_queue.enqueue_event(  # own tasks' do (a continue's, a2a-sdk adds)
                new_task(task_id, context_id, TaskState.TASK_STATE_SUBMITTED, history=history)
            )
        updater = TaskUpdater(event_queue, task_id, context_id)
        await self._relay(task, after, updater, caller, speaker)

    async def _relay(
        self,
        task: PartnerTask,
        after: int,
        updater: TaskUpdater,
        caller: CallerUser,
        speaker: object,
    ) -> None:
        bridge = self.bridge

        async def complete() -> PartnerTask:
            assert task.session_id is not None
            return await bridge.apply(
                TaskCommandType.COMPLETE,
                caller=caller,
                context_id=updater.context_id,
                session_id=task.session_id,
                task_id=task.id,
            )

        await relay(task, after, updater, bridge.speakers, caller.user_name, complete, speaker)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Cancel the task; its events are relayed from here on by this cancel alone (a
        relay of the request that started it stops speaking)."""
        bridge = self.bridge
        caller, task_id, context_id = _ids(context)
        known = bridge.runtime.task_of(caller.user_name, task_id)
        updater = TaskUpdater(event_queue, task_id, context_id)
        if known is None or known.session_id is None:
            await updater.cancel()
            return
        speaker = bridge.speakers.take(caller.user_name, task_id)
        after = known.next_seq - 1
        task = await bridge.apply(
            TaskCommandType.CANCEL,
            caller=caller,
            context_id=context_id,
            session_id=known.session_id,
            task_id=task_id,
        )
        await self._relay(task, after, updater, caller, speaker)


def _ids(context: RequestContext) -> tuple[CallerUser, str, str]:
    """The caller, the task, and the task's own context (a message that names only its
    task gets a fresh ``context_id`` from a2a-sdk; the task keeps the one it began in)."""
    user = context.call_context.user
    assert isinstance(user, CallerUser)
    current = context.current_task
    context_id = current.context_id if current is not None else str(context.context_id)
    return user, str(context.task_id), context_id


__all__ = ["CALLER_KEY", "A2ABridge", "CallerUser"]
