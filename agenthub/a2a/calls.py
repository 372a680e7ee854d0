"""The kit leader calling A2A agents through a2a-sdk's client, recorded at the hub as AIP.

A partner whose registry card declares the A2A protocol (and not AIP) is called by A2A: the
same ``Leader`` methods, the same AIP answers. ``start`` is a ``SendMessage`` whose
``contextId`` is the session, ``continue`` one on the A2A task, ``cancel`` a ``CancelTask``,
``get`` a ``GetTask``, a stream ``SendStreamingMessage`` (``re-stream``: ``SubscribeToTask``),
notifications a push config on the message. The A2A agent chooses its task's id; the leader
keeps the AIP id it chose and maps one to the other. A blocking ``start`` or ``continue`` goes
as ``SendStreamingMessage`` to an agent that streams, so that id is known from the first
event and a ``cancel`` reaches the task while the start waits.

An A2A agent records nothing at the hub, so the leader records for it, as for any partner
that does not sign: its commands as always, and each state the agent reports as a relayed,
unverified answer, with the moves it took without saying filled in (an A2A task may go from
submitted to completed at once). ``COMPLETED`` is recorded as ``awaiting-completion``, so
the leader's ``complete`` ends it as it ends an AIP task (``agenthub.a2a.convert``); that
``complete`` goes nowhere but the hub. A ``cancel`` is recorded once the agent has answered
it, as what it did (``A2ACalls._cancel``); a2a-sdk's errors reach the caller as the kit's
``A2ACallFailed``.

Kept whole: ``A2ACalls`` is the module, and says why it is one class.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import httpx
import orjson
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.types import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    Task,
    TaskPushNotificationConfig,
    TaskState,
)
from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP, A2AError, TaskNotCancelableError
from google.protobuf.json_format import Parse, ParseError

import agenthub.tracing as tracing
from agenthub.a2a.card import check_card_signature
from agenthub.a2a.convert import (
    A2A_STATE_OF,
    AIP_STATE_OF,
    aip_path,
    items_of,
    parts_of,
    product_of,
)
from agenthub.errors import A2ACallFailed, CallFailed, CardSignatureError
from agenthub.leader_side import LeaderSide
from agenthub.protocol.messages import StartCommandParams, TaskCommand, TaskCommandType
from agenthub.protocol.messages import TaskState as AipState
from agenthub.protocol.tasks import FINAL_STATES, leader_command_target
from agenthub.signing import CallTokenAuth
from agenthub.transport import http_client

MAX_TASKS = 10_000
A2A_METHOD_OF = {
    TaskCommandType.START: "SendMessage",
    TaskCommandType.CONTINUE: "SendMessage",
    TaskCommandType.CANCEL: "CancelTask",
    TaskCommandType.COMPLETE: "complete",  # A2A has none: the leader's own move
}
"""The A2A method an AIP command takes (its span's name); a ``get`` is ``GetTask``."""
"""A2A tasks whose AIP ids the leader remembers; the oldest go first."""
MAX_CLIENTS = 64
"""A2A agents the leader keeps a client for."""
LEADERS_TURN = frozenset({AipState.AWAITING_INPUT, AipState.AWAITING_COMPLETION} | FINAL_STATES)
POLL_FIRST_SECONDS = 0.05
POLL_MAX_SECONDS = 1.0
"""How often a start with a ``timeout`` asks the A2A agent where its task is."""


@dataclass
class _Remote:
    """One A2A task as the leader knows it: its A2A ids, what the hub has of it."""

    partner_id: str
    session_id: str
    task_id: str  # the AIP id, the leader's
    a2a_id: str = ""
    context_id: str = ""
    recorded: AipState | None = None
    products: dict[str, dict[str, Any]] = field(default_factory=dict)
    seq: int = 0
    last_sent: datetime | None = None  # the latest sentAt of a result made for it
    canceling: bool = False  # the leader's CancelTask is out: a CANCELED is its answer


def _start_timeout(command: TaskCommand) -> float | None:
    """A start's ``timeout`` (AIP: ms), in seconds; None for any other command, or none."""
    if command.command != TaskCommandType.START:
        return None
    timeout = StartCommandParams.model_validate(command.command_params or {}).timeout
    return timeout / 1000 if timeout else None


@contextlib.contextmanager
def _a2a_errors() -> Iterator[None]:
    """a2a-sdk's errors (an A2A agent's error answer, its client's own failures) raised as
    the kit's: ``A2ACallFailed``, a ``CallFailed`` carrying the SDK's exception."""
    try:
        yield
    except A2AError as exc:
        code = JSON_RPC_ERROR_CODE_MAP.get(type(exc))
        raise A2ACallFailed(
            f"The A2A agent's call failed: {type(exc).__name__}: {exc.message}",
            error=exc,
            code=code,
            data=exc.data,
        ) from exc


class A2ACalls:
    """Kept whole: every call shape (send, stream, cancel, the notified start) shares the
    per-partner clients and the map of A2A tasks to the AIP ids the leader chose, and each is a
    few lines over the same conversion (``agenthub.a2a.convert``) and recording; apart, each
    would pass both maps around.
    """

    def __init__(self, leader: LeaderSide) -> None:
        self.leader = leader
        self.card_urls: dict[str, str] = {}
        self._cards: dict[str, AgentCard] = {}
        self._clients: OrderedDict[tuple[str, bool], tuple[httpx.AsyncClient, Client]] = (
            OrderedDict()
        )
        self._tasks: OrderedDict[tuple[str, str], _Remote] = OrderedDict()

    async def aclose(self) -> None:
        for close in self.let_clients_go():
            await close()

    # -- clients ---------------------------------------------------------------------------

    def _verify(self) -> Any:
        """What the leader trusts: the hub's CA beside the web's (its TLS client), else the
        web's."""
        return self.leader.tls.client if self.leader.tls is not None else True

    def _aic(self, partner_id: str) -> str | None:
        """With the hub's CA, TLS checks the partner's AIC first (``AicFirst``)."""
        return partner_id if self.leader.tls is not None else None

    def let_clients_go(self) -> list[Callable[[], Awaitable[None]]]:
        """Forget every client (after a certificate renewal); how to close each later."""
        clients = list(self._clients.values())
        self._clients.clear()
        return [functools.partial(_close, http, client) for http, client in clients]

    async def _card(self, partner_id: str) -> AgentCard:
        if partner_id not in self._cards:
            url = self.card_urls.get(partner_id)
            if url is None:
                registered = await self.leader.directory.card(partner_id)
                url = next(b.url for b in registered.protocols if b.protocol == "a2a")
            base, _, path = url.partition("/.well-known/")
            async with http_client(
                timeout=self.leader.http.timeout, verify=self._verify(), aic=self._aic(partner_id)
            ) as http:
                resolver = A2ACardResolver(http, base)
                card_path = f"/.well-known/{path}" if path else None
                with _a2a_errors():
                    card = await resolver.get_agent_card(card_path)
            signed = check_card_signature(card, await self.leader.hub.hub_keys())
            if not signed and self.leader.require_signed_cards:
                raise CardSignatureError(f"{partner_id}'s agent card is not signed by the hub.")
            self._cards[partner_id] = card
        return self._cards[partner_id]

    async def client(self, partner_id: str, *, streaming: bool) -> Client:
        """a2a-sdk's client for the partner: its card's preferred interface, every request
        with a call token for it (a kit partner checks it; another agent ignores it)."""
        key = (partner_id, streaming)
        if key in self._clients:
            self._clients.move_to_end(key)
            return self._clients[key][1]
        card = await self._card(partner_id)
        leader = self.leader
        auth = CallTokenAuth(leader.hub.key, caller_id=leader.agent_id, callee_id=partner_id)
        http = http_client(
            timeout=leader.http.timeout,
            auth=auth,
            verify=self._verify(),
            aic=self._aic(partner_id),
        )
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=streaming)).create(card)
        self._clients[key] = (http, client)
        while len(self._clients) > MAX_CLIENTS:
            _, (old_http, old) = self._clients.popitem(last=False)
            await _close(old_http, old)
        return client

    # -- the record ------------------------------------------------------------------------

    def _remote(self, partner_id: str, command: TaskCommand) -> _Remote:
        assert command.session_id is not None and command.task_id is not None
        key = (command.session_id, command.task_id)
        remote = self._tasks.get(key)
        if remote is None:
            if command.command != TaskCommandType.START:
                raise CallFailed(f"No A2A task of {command.task_id} is known here.", status=404)
            remote = _Remote(partner_id, command.session_id, command.task_id)
            self._tasks[key] = remote
            while len(self._tasks) > MAX_TASKS:
                self._tasks.popitem(last=False)
        self._tasks.move_to_end(key)
        return remote

    def _result(
        self, remote: _Remote, state: AipState, items: list[dict[str, Any]] | None
    ) -> dict[str, Any]:
        now = datetime.now(UTC)
        remote.last_sent = max(now, remote.last_sent or now)
        result: dict[str, Any] = {
            "type": "task-result",
            "id": f"a2a-{uuid.uuid4().hex}",
            "sentAt": now.isoformat(),
            "senderRole": "partner",
            "senderId": remote.partner_id,
            "sessionId": remote.session_id,
            "taskId": remote.task_id,
            "status": {"state": state.value, "stateChangedAt": datetime.now(UTC).isoformat()},
        }
        if items:
            result["status"]["dataItems"] = items
        if remote.products:
            result["products"] = list(remote.products.values())
        return result

    def _reached(
        self, remote: _Remote, state: AipState, items: list[dict[str, Any]] | None, record: bool
    ) -> dict[str, Any]:
        """The partner reached ``state``: each move the hub has not seen, relayed; the
        TaskResult of where it is now (a task the hub has as ended stays so: completed by
        the leader, the agent still says ``COMPLETED``)."""
        if remote.recorded in FINAL_STATES:
            return self._result(remote, remote.recorded, items)
        if state == AipState.CANCELED and remote.canceling:
            # the agent taking the leader's cancel (a stream of the task saw it first):
            # recorded by ``_cancel`` as the command's move, once the agent has answered it
            return self._result(remote, state, items)
        path = aip_path(remote.recorded, state)
        if not path and state in FINAL_STATES:
            # an end the partner's moves cannot reach from here (an A2A agent's own
            # CANCELED while working): the hub's task still ends, failed, saying how the
            # agent ended it
            said = f"The A2A agent ended the task as {state.value}."
            items = [*(items or []), {"type": "text", "text": said}]
            state = AipState.FAILED
            path = aip_path(remote.recorded, state)
        results = [self._result(remote, step, None) for step in path]
        if results:
            results[-1] = self._result(remote, state, items)
            remote.recorded = state
        recorder = self.leader.recorder
        if not record or recorder is None:
            return results[-1] if results else self._result(remote, state, items)
        for result in results:
            answer = orjson.dumps({"jsonrpc": "2.0", "id": result["id"], "result": result})
            recorder.relay(
                remote.session_id,
                remote.task_id,
                partner_id=remote.partner_id,
                answer=answer,
                signature=None,
                nonce=None,
            )
        return results[-1] if results else self._result(remote, state, items)

    @staticmethod
    def _same_task(remote: _Remote, task_id: str, context_id: str) -> None:
        """An event is of the task the leader knows (the first one names it)."""
        if remote.a2a_id and task_id and task_id != remote.a2a_id:
            raise CallFailed(f"The A2A agent sent an event of task {task_id}, not of this one.")
        remote.a2a_id = remote.a2a_id or task_id
        remote.context_id = remote.context_id or context_id

    def _task_state(self, remote: _Remote, task: Task, record: bool) -> dict[str, Any]:
        self._same_task(remote, task.id, task.context_id)
        for artifact in task.artifacts:
            remote.products[artifact.artifact_id] = product_of(artifact)
        return self._status(remote, task.status.state, task.status.message, record)

    def _status(
        self, remote: _Remote, state: TaskState, message: Message | None, record: bool
    ) -> dict[str, Any]:
        items = items_of(message.parts) if message is not None and message.parts else None
        target = AIP_STATE_OF.get(state)
        if target is None:
            raise CallFailed(f"The A2A agent's task is in state {TaskState.Name(state)}.")
        return self._reached(remote, target, items, record)

    # -- calls -----------------------------------------------------------------------------

    def _message(self, remote: _Remote, command: TaskCommand) -> Message:
        items = [item.to_wire() for item in command.data_items or []]
        message = Message(
            role=Role.ROLE_USER,
            message_id=command.id,
            context_id=remote.context_id or remote.session_id,
            parts=parts_of(items),
        )
        if remote.a2a_id:
            message.task_id = remote.a2a_id
        return message

    async def send(
        self,
        partner_id: str,
        command: TaskCommand,
        *,
        record: bool = True,
        push: TaskPushNotificationConfig | None = None,
    ) -> dict[str, Any]:
        """One command by A2A; the AIP TaskResult of where the task is then. Traced as a
        span named after the A2A method it takes (OpenTelemetry's A2A conventions)."""
        method = A2A_METHOD_OF.get(command.command, "GetTask")
        remote = self._remote(partner_id, command)
        if method == "SendMessage" and self._streamed(command, push, await self._card(partner_id)):
            method = "SendStreamingMessage"
        attributes = {
            "a2a.method.name": method,
            "a2a.message.id": command.id,
            "a2a.task.id": remote.a2a_id or None,
            "aip.task.id": command.task_id,
            "gen_ai.conversation.id": command.session_id,
            "gen_ai.agent.id": partner_id,
        }
        with tracing.span(method, kind="CLIENT", attributes=attributes) as span:
            answer = await self._send(partner_id, remote, command, record=record, push=push)
            state = tracing.task_state(answer)
            shown = {
                "aip.task.state": state,
                "a2a.task.state": _a2a_state_name(state),
                "a2a.task.id": remote.a2a_id or None,
            }
            tracing.set_attributes(span, shown)  # the task id the partner gave, once it has
        return answer

    async def _send(
        self,
        partner_id: str,
        remote: _Remote,
        command: TaskCommand,
        *,
        record: bool,
        push: TaskPushNotificationConfig | None,
    ) -> dict[str, Any]:
        name = command.command
        if name == TaskCommandType.CANCEL:
            return await self._cancel(partner_id, remote, command, record)
        await self._card(partner_id)  # an agent the leader will not call gets no record either
        await self.leader.record_command(command, record)
        moved = leader_command_target(remote.recorded, name) if remote.recorded else None
        if name in (TaskCommandType.START, TaskCommandType.CONTINUE):
            if name == TaskCommandType.CONTINUE and moved is not None:
                remote.recorded = moved
            seconds = _start_timeout(command) if push is None else None
            blocking = push is None and seconds is None
            configuration = SendMessageConfiguration(return_immediately=not blocking)
            if push is not None:
                configuration.task_push_notification_config.CopyFrom(push)
            request = SendMessageRequest(
                message=self._message(remote, command), configuration=configuration
            )
            # a blocking send goes as a stream to an agent that streams: its task's id
            # comes with the first event, so a cancel reaches the task meanwhile
            client = await self.client(partner_id, streaming=blocking)
            try:
                answer = await self._answer(client, remote, request, record)
            except CallFailed as failed:
                if failed.code is not None:  # the agent's error answer
                    await self._after_error(partner_id, remote, command, failed, record)
                raise
            if seconds is not None:
                answer = await self._until(client, remote, answer, seconds, record)
            return answer
        if name == TaskCommandType.COMPLETE:  # A2A has none: the task ended for the agent
            if moved is None:
                return self._result(remote, remote.recorded or AipState.ACCEPTED, None)
            remote.recorded = moved
            return self._result(remote, moved, None)
        client = await self.client(partner_id, streaming=False)
        with _a2a_errors():
            task = await client.get_task(GetTaskRequest(id=remote.a2a_id))
        return self._task_state(remote, task, record)

    @staticmethod
    def _streamed(
        command: TaskCommand, push: TaskPushNotificationConfig | None, card: AgentCard
    ) -> bool:
        """Whether a ``SendMessage`` goes as a stream: a blocking one (no push, no start
        ``timeout``) to an agent whose card says it streams."""
        blocking = push is None and _start_timeout(command) is None
        return blocking and card.capabilities.streaming

    async def _answer(
        self, client: Client, remote: _Remote, request: SendMessageRequest, record: bool
    ) -> dict[str, Any]:
        """The agent's answer to a ``SendMessage``: its one event, or, streamed, its events
        up to where the task waits for the leader or has ended (the stream closed there)."""
        answer: dict[str, Any] | None = None
        events = client.send_message(request)
        try:
            while True:
                with _a2a_errors():
                    event = await anext(events, None)
                if event is None:
                    break
                data = self._event(remote, event, record)
                if data is None or data["type"] != "task-result":
                    continue
                answer = data
                if AipState(answer["status"]["state"]) in LEADERS_TURN:
                    break
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()
        if answer is None:
            raise CallFailed("The A2A agent answered with no task.")
        return answer

    async def _until(
        self,
        client: Client,
        remote: _Remote,
        answer: dict[str, Any],
        seconds: float,
        record: bool,
    ) -> dict[str, Any]:
        """A start with a ``timeout``, sent to answer at once (so its A2A task id is known
        from the first answer: a cancel can reach it meanwhile): the task once it waits for
        the leader or has ended, or as it is when ``seconds`` have passed, as an AIP
        partner answers such a start (asked again, 50 ms apart at first, then up to 1 s)."""
        deadline = time.monotonic() + seconds
        pause = POLL_FIRST_SECONDS
        while AipState(answer["status"]["state"]) not in LEADERS_TURN:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, POLL_MAX_SECONDS)
            with _a2a_errors():
                task = await client.get_task(GetTaskRequest(id=remote.a2a_id))
            answer = self._task_state(remote, task, record)
        return answer

    async def _cancel(
        self, partner_id: str, remote: _Remote, command: TaskCommand, record: bool
    ) -> dict[str, Any]:
        """A ``CancelTask``, recorded once the agent has answered, as what it did: a cancel
        the agent took moves the hub's task as the command says (the command, then the
        state the agent reports); one it refused as not cancelable (a2a-sdk's
        ``TaskNotCancelableError``: the agent has ended the task) moves nothing. Then the
        leader asks the agent where its task is, relays that end (an A2A ``COMPLETED`` the
        leader has not completed is the agent's own end of the wait, AIP ``completed``) and
        records the cancel after it, stamped when the refusal is known, so the hub keeps it
        as a command the task ignores (AIP §4.5) and raises ``A2ACallFailed`` with the task
        as the agent has it. Recorded before it is sent, a refused cancel would end the
        hub's task ``canceled`` while the agent says it completed."""
        if not remote.a2a_id:
            raise CallFailed(
                f"The A2A agent has not named task {remote.task_id} yet (its start is in "
                "flight, and the agent streams nothing): a cancel can reach it once the start "
                "answers.",
                status=409,
            )
        client = await self.client(partner_id, streaming=False)
        remote.canceling = True  # until the hub has the cancel's move (``_reached``)
        try:
            try:
                with _a2a_errors():
                    task = await client.cancel_task(CancelTaskRequest(id=remote.a2a_id))
            except A2ACallFailed as failed:
                if not isinstance(failed.error, TaskNotCancelableError):
                    if not failed.code:  # no answer of the agent's: it may have taken it
                        await self.leader.record_command(command, record)
                    raise
                failed.result = await self._refused(partner_id, remote, command, record)
                raise
            await self.leader.record_command(command, record)
            recorded = remote.recorded
            moved = leader_command_target(recorded, command.command) if recorded else None
            if moved is not None:  # the agent took it: the hub moved as the command says
                remote.recorded = moved
        finally:
            remote.canceling = False
        return self._task_state(remote, task, record)

    async def _after_error(
        self,
        partner_id: str,
        remote: _Remote,
        command: TaskCommand,
        failed: CallFailed,
        record: bool,
    ) -> None:
        """The agent answered a send with an error: a start whose task it never named is
        recorded failed, saying why (``agenthub.failed_start``); a task it named is asked
        for, and where the agent says it is, relayed (``A2ACallFailed.result``)."""
        if not remote.a2a_id:
            self.leader.record_failed_start(partner_id, command, failed, record)
            return
        client = await self.client(partner_id, streaming=False)
        with contextlib.suppress(CallFailed):
            with _a2a_errors():
                task = await client.get_task(GetTaskRequest(id=remote.a2a_id))
            result = self._task_state(remote, task, record)
            if isinstance(failed, A2ACallFailed):
                failed.result = result

    async def _refused(
        self, partner_id: str, remote: _Remote, command: TaskCommand, record: bool
    ) -> dict[str, Any] | None:
        """After a cancel the agent refused: its task as it says (relayed), and the cancel
        recorded where the hub ignores it, if the task has ended there; None when the agent
        could not say where its task is (the cancel then goes unrecorded: the hub would
        move the task by it)."""
        client = await self.client(partner_id, streaming=False)
        try:
            with _a2a_errors():
                task = await client.get_task(GetTaskRequest(id=remote.a2a_id))
        except A2ACallFailed:
            return None
        result = self._task_state(remote, task, record)
        ended = task.status.state == TaskState.TASK_STATE_COMPLETED
        if ended and remote.recorded == AipState.AWAITING_COMPLETION:
            result = self._reached(remote, AipState.COMPLETED, None, record)
        if remote.recorded in FINAL_STATES:
            after = (remote.last_sent or command.sent_at) + timedelta(microseconds=1)
            stamped = command.model_copy(update={"sent_at": max(datetime.now(UTC), after)})
            await self.leader.record_command(stamped, record)
        return result

    def _event(self, remote: _Remote, event: StreamResponse, record: bool) -> dict[str, Any] | None:
        """An A2A event as the AIP event it is (a TaskResult, or a ProductChunk); a plain
        message answers as a product of a task that awaits completion."""
        kind = event.WhichOneof("payload")
        if kind == "task":
            return self._task_state(remote, event.task, record)
        if kind == "status_update":
            update = event.status_update
            self._same_task(remote, update.task_id, update.context_id)
            return self._status(remote, update.status.state, update.status.message, record)
        if kind == "artifact_update":
            update_artifact = event.artifact_update
            self._same_task(remote, update_artifact.task_id, update_artifact.context_id)
            product = product_of(update_artifact.artifact)
            old = remote.products.get(product["id"])
            if update_artifact.append and old is not None:
                product = {**old, "dataItems": [*old["dataItems"], *product["dataItems"]]}
            remote.products[product["id"]] = product
            return {
                **self._result(remote, AipState.WORKING, None),
                "type": "product-chunk",
                "product": product_of(update_artifact.artifact),
                "append": update_artifact.append,
                "lastChunk": update_artifact.last_chunk,
            }
        if kind == "message":
            remote.products[f"message-{event.message.message_id}"] = {
                "id": f"message-{event.message.message_id}",
                "dataItems": items_of(event.message.parts),
            }
            return self._reached(remote, AipState.AWAITING_COMPLETION, None, record)
        return None

    async def stream(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, follow: bool = False
    ) -> AsyncIterator[dict[str, Any]]:
        """The command by A2A streaming; yields ``{eventSeq, eventData}`` as an AIP stream
        does, and stops where the task waits for the leader unless ``follow``."""
        remote = self._remote(partner_id, command)
        await self.leader.record_command(command, record and command.command != "re-stream")
        client = await self.client(partner_id, streaming=True)
        events: AsyncIterator[StreamResponse]
        if command.command == TaskCommandType.RE_STREAM:
            events = client.subscribe(SubscribeToTaskRequest(id=remote.a2a_id))
        else:
            name = command.command
            moved = leader_command_target(remote.recorded, name) if remote.recorded else None
            if moved is not None:
                remote.recorded = moved
            request = SendMessageRequest(message=self._message(remote, command))
            events = client.send_message(request)
        try:
            while True:
                with _a2a_errors():
                    event = await anext(events, None)
                if event is None:
                    return
                data = self._event(remote, event, record)
                if data is None:
                    continue
                remote.seq += 1
                yield {"eventSeq": remote.seq, "eventData": data}
                status = data.get("status") if data["type"] == "task-result" else None
                if not follow and status is not None and AipState(status["state"]) in LEADERS_TURN:
                    return
        finally:  # the SDK's stream, closed now rather than by the collector
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()

    # -- pushes ----------------------------------------------------------------------------

    async def start_notified(
        self, partner_id: str, command: TaskCommand, notify_url: str, token: str
    ) -> dict[str, Any]:
        """A start whose task's moves the agent pushes to ``{notify_url}/a2a``, the push
        URL naming the task (the endpoint's ``/notifications/a2a``), with ``token``."""
        query = urlencode({"session": command.session_id, "task": command.task_id})
        url = f"{notify_url.rstrip('/')}/a2a?{query}"
        push = TaskPushNotificationConfig(url=url, token=token)
        return await self.send(partner_id, command, push=push)

    def pushed(self, session_id: str, task_id: str, body: bytes) -> dict[str, Any] | None:
        """A push of the A2A agent (a ``StreamResponse``, as a2a-sdk sends it), as the AIP
        event the leader's inbox keeps, recorded like an answer; None for a task the leader
        does not know, or a body that is no ``StreamResponse``."""
        remote = self._tasks.get((session_id, task_id))
        if remote is None:
            return None
        try:
            event = Parse(body, StreamResponse(), ignore_unknown_fields=True)
            return self._event(remote, event, True)
        except (ParseError, ValueError, CallFailed):  # no UTF-8, no JSON, no state, not ours
            return None


async def _close(http: httpx.AsyncClient, client: Client) -> None:
    await client.close()
    await http.aclose()


def _a2a_state_name(state: str | None) -> str | None:
    """The A2A wire name (``TASK_STATE_…``) of the state an AIP answer shows, if any."""
    try:
        return TaskState.Name(A2A_STATE_OF[AipState(state)]) if state else None
    except (ValueError, KeyError):
        return None
