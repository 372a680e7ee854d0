"""The leader's side: sessions at the hub, tasks at partners by rpc, stream or notification,
each command recorded at the hub before it is sent.

Every call carries a call token, and every answer is proved to be the partner's
(``agenthub.aip_calls``: by its signature, or over HTTPS by the partner's certificate from
the hub's CA, mutual TLS). A peer that cannot sign (an acps-sdk server) is called over HTTPS,
and its answers are recorded for it. A partner that speaks only A2A is called through
``agenthub.a2a.calls``.

Kept whole: ``Leader`` is the module, and says why it is one class.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import httpx

from agenthub.aip_calls import AipCalls
from agenthub.commands import leader_command, text_items
from agenthub.directory import PeerDirectory
from agenthub.errors import CallFailed, KitError
from agenthub.failed_start import FAILED_CALLS, ended_start, failed_answer, not_taken
from agenthub.hub import HubClient
from agenthub.inbox import NotificationInbox
from agenthub.paths import segment
from agenthub.protocol.messages import TaskCommand
from agenthub.protocol.sessions import SessionView
from agenthub.recorder import HubRecorder
from agenthub.results import TaskAnswer, TaskEvent, task_event
from agenthub.signing import SIGNATURE_HEADER
from agenthub.task_run import RUN_WAIT_SECONDS, Answerer, run_task
from agenthub.tls import AgentTls
from agenthub.transport import CALL_TIMEOUT_SECONDS, http_client, one_request_id

if TYPE_CHECKING:
    from agenthub.a2a.calls import A2ACalls

RECORD_FLUSH_SECONDS = 2.0


class Leader:
    """An agent's leader side: what a developer holds as ``agent.leader``.

    Its public methods are the AIP task methods spelled out (``start``, ``continue_task``,
    ``complete``, ``cancel``, ``get``, the streamed and notified starts), each a few lines
    over ``send`` and ``stream``, and ``run``, a task from start to end in one call. Calls
    answer a ``TaskAnswer`` (``.state``, ``.products``, ``.text``; item access is the raw
    JSON), streams yield ``TaskEvent``s (``agenthub.results``).

    Kept whole: it is the one object a developer calls for every task method, each a few
    lines. The concerns under them live apart: the wire and the proof of each answer in
    ``AipCalls`` (``agenthub.aip_calls``), A2A partners in ``A2ACalls``
    (``agenthub.a2a.calls``), the records in the ``HubRecorder``.
    """

    def __init__(
        self,
        hub: HubClient,
        *,
        directory: PeerDirectory,
        recorder: HubRecorder | None,
        inbox: NotificationInbox | None = None,
        http: httpx.AsyncClient | None = None,
        verify_answers: bool = True,
        endpoints: dict[str, str] | None = None,
        tls: AgentTls | None = None,
        plain_http: bool = False,
        require_signed_cards: bool = False,
    ) -> None:
        self.hub = hub
        self.directory = directory
        self.recorder = recorder
        self.inbox = inbox
        self.tls = tls
        self.plain_http = plain_http
        self.http = http or http_client(
            timeout=CALL_TIMEOUT_SECONDS, verify=tls.client if tls is not None else True
        )
        self._owns_http = http is None  # a client passed in is its owner's to close
        self.verify_answers = verify_answers
        self.require_signed_cards = require_signed_cards
        self.endpoints = dict(endpoints or {})
        self._a2a: A2ACalls | None = None
        self.aip = AipCalls(self)

    async def aclose(self) -> None:
        """Close the HTTP client the leader made (one passed in is left to its owner), and
        the A2A clients."""
        if self._a2a is not None:
            await self._a2a.aclose()
        if self._owns_http:
            await self.http.aclose()

    async def __aenter__(self) -> Leader:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    @property
    def agent_id(self) -> str:
        if self.hub.agent_id is None:
            raise KitError("register the agent first")
        return self.hub.agent_id

    # -- A2A partners (agenthub.a2a.calls) -------------------------------------------------

    @property
    def a2a(self) -> A2ACalls:
        if self._a2a is None:  # a2a-sdk is the kit's [a2a] extra: imported when first used
            from agenthub.a2a.calls import A2ACalls

            self._a2a = A2ACalls(self)
        return self._a2a

    def use_a2a(self, partner_id: str, card_url: str) -> None:
        """Call ``partner_id`` by A2A, at the agent whose Agent Card is at ``card_url`` (a
        base URL, or the card's own); else a partner is called by A2A when its registry
        card declares A2A and not AIP."""
        self.a2a.card_urls[partner_id] = card_url

    async def _by_a2a(self, partner_id: str) -> bool:
        if self._a2a is not None and partner_id in self._a2a.card_urls:
            return True
        if partner_id in self.endpoints:
            return False
        protocols = {b.protocol for b in (await self.directory.card(partner_id)).protocols}
        return "a2a" in protocols and "aip" not in protocols

    def a2a_clients_renewed(self) -> list[Callable[[], Awaitable[None]]]:
        """After a certificate renewal: the A2A clients made with the old one are let go
        (new calls make new ones); how to close them, once their calls are done."""
        return [] if self._a2a is None else self._a2a.let_clients_go()

    def a2a_pushed(self, session_id: str, task_id: str, body: bytes) -> dict[str, Any] | None:
        """An A2A agent's push for one of this leader's tasks, as its AIP event."""
        return None if self._a2a is None else self._a2a.pushed(session_id, task_id, body)

    # -- sessions at the hub ---------------------------------------------------------------

    async def open_session(
        self,
        receivers: Sequence[str | dict[str, Any]],
        *,
        title: str | None = None,
        goal: str | None = None,
        session_id: str | None = None,
    ) -> SessionView:
        body: dict[str, Any] = {
            "receivers": [r if isinstance(r, dict) else {"agentId": r} for r in receivers]
        }
        for name, value in (("id", session_id), ("title", title), ("goal", goal)):
            if value is not None:
                body[name] = value
        response = await self.hub.request("POST", "/v1/sessions", json=body)
        return SessionView.model_validate(HubClient._json(response))

    async def close_session(self, session_id: str) -> SessionView:
        response = await self.hub.request(
            "PATCH", f"/v1/sessions/{segment(session_id)}", json={"state": "closed"}
        )
        return SessionView.model_validate(HubClient._json(response))

    # -- commands ------------------------------------------------------------------------

    def command(
        self,
        name: str,
        *,
        session_id: str,
        task_id: str | None = None,
        partner_id: str | None = None,
        text: str | None = None,
        data_items: list[dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
        **extra: Any,
    ) -> TaskCommand:
        """A command from this leader; a ``start`` without ``task_id`` gets a fresh one."""
        if name == "start" and task_id is None:
            task_id = f"task-{uuid.uuid4().hex}"
        return leader_command(
            name,
            sender_id=self.agent_id,
            session_id=session_id,
            task_id=task_id,
            partner_id=partner_id,
            data_items=data_items or text_items(text),
            params=params,
            **extra,
        )

    async def record_command(self, command: TaskCommand, record: bool = True) -> None:
        """Queue the command's record for the hub (when ``record`` and it has a session),
        waiting while the session's backlog is past its bound: what every call records
        before it is sent, by AIP or (``agenthub.a2a.calls``) by A2A."""
        if record and self.recorder is not None and command.session_id:
            self.recorder.record(command.session_id, command.to_wire())
            await self.recorder.admit(command.session_id, RECORD_FLUSH_SECONDS)

    def record_failed_start(
        self, partner_id: str, command: TaskCommand, error: BaseException, record: bool = True
    ) -> None:
        """A start recorded, whose call ended with no task at the partner: its end recorded
        too, the task ``failed`` saying why (``agenthub.failed_start``)."""
        if record and self.recorder is not None and ended_start(command) and not_taken(error):
            assert command.session_id is not None
            self.recorder.relay(
                command.session_id,
                command.task_id,
                partner_id=partner_id,
                answer=failed_answer(command, partner_id, error),
                signature=None,
                nonce=None,
            )

    # -- calls -----------------------------------------------------------------------------

    async def call(self, partner_id: str, method: str, params: dict[str, Any]) -> Any:
        """One JSON-RPC call to the partner; the checked ``result``."""
        return (await self.aip.exchange(partner_id, method, params))[0]

    async def send(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, method: str = "rpc"
    ) -> TaskAnswer:
        """Record the command at the hub, send it by ``rpc`` (or ``notification/start``),
        return the partner's TaskResult."""
        if await self._by_a2a(partner_id):
            return TaskAnswer(await self.a2a.send(partner_id, command, record=record))
        with one_request_id():  # the command's record, the call, the partner's records
            await self.record_command(command, record)
            params = {"command" if method == "rpc" else "message": command.to_wire()}
            try:
                result, answer, nonce = await self.aip.exchange(partner_id, method, params)
                if not isinstance(result, dict):
                    raise CallFailed("The rpc result is not a TaskResult.")
            except FAILED_CALLS as error:
                self.record_failed_start(partner_id, command, error, record)
                raise
        signature = answer.headers.get(SIGNATURE_HEADER)
        if record and signature is None and self.recorder is not None and command.session_id:
            # a partner that signs nothing (not a kit agent) records nothing at the hub: its
            # leader records its answer for it, marked unverified
            self.recorder.relay(
                command.session_id,
                command.task_id or result.get("taskId"),
                partner_id=partner_id,
                answer=answer.content,
                signature=None,
                nonce=nonce,
            )
        return TaskAnswer(result)

    async def stream(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, follow: bool = False
    ) -> AsyncIterator[TaskEvent]:
        """Send the command by ``stream``; yield its events (``{eventSeq, eventData}``,
        typed: ``StatusEvent``, ``ProductEvent``, ``ResultEvent``). The partner
        keeps the stream open until the task ends (AIP 6.2); ``follow``: read it that far
        (the task's next commands go by ``rpc`` meanwhile), else stop where the task waits
        for the leader, closing it."""
        if await self._by_a2a(partner_id):
            async for event in self.a2a.stream(partner_id, command, record=record, follow=follow):
                yield task_event(event)
            return
        await self.record_command(command, record)
        answered = False
        try:
            async for event in self.aip.stream(partner_id, command, follow=follow):
                answered = True
                yield task_event(event)
        except FAILED_CALLS as error:
            if not answered:
                self.record_failed_start(partner_id, command, error, record)
            raise

    # -- the three methods, spelled out ---------------------------------------------------

    async def start(
        self,
        partner_id: str,
        *,
        session_id: str,
        text: str | None = None,
        data_items: list[dict[str, Any]] | None = None,
        task_id: str | None = None,
        **extra: Any,
    ) -> TaskAnswer:
        """Start a task by rpc; the partner answers when the task waits for this leader
        (``awaiting-completion``: its products are in; ``awaiting-input``: a question) or
        has ended, or with the state it is in when its rpc wait ends. A task that waits at
        ``awaiting-completion`` ends only with this leader's ``complete`` (or ``cancel``,
        or ``continue_task`` to send it back): ``run`` does all of that in one call."""
        command = self.command(
            "start",
            session_id=session_id,
            partner_id=partner_id,
            task_id=task_id,
            text=text,
            data_items=data_items,
            **extra,
        )
        return await self.send(partner_id, command)

    def start_streaming(
        self,
        partner_id: str,
        *,
        session_id: str,
        text: str | None = None,
        task_id: str | None = None,
        follow: bool = False,
        **extra: Any,
    ) -> AsyncIterator[TaskEvent]:
        """Start a task by stream: its events up to this leader's turn (``follow``: to its
        end, the next commands going by rpc meanwhile)."""
        command = self.command(
            "start",
            session_id=session_id,
            partner_id=partner_id,
            task_id=task_id,
            text=text,
            **extra,
        )
        return self.stream(partner_id, command, follow=follow)

    async def start_notified(
        self,
        partner_id: str,
        *,
        session_id: str,
        notify_url: str,
        text: str | None = None,
        task_id: str | None = None,
        notify_on_states: list[str] | None = None,
    ) -> TaskAnswer:
        """Ask for pushes to ``notify_url``, then start; the answer is only the first state."""
        task_id = task_id or f"task-{uuid.uuid4().hex}"
        token = uuid.uuid4().hex
        if self.inbox is not None:
            self.inbox.expect(task_id, partner_id=partner_id, token=token, session_id=session_id)
        if await self._by_a2a(partner_id):  # an A2A push config on the message itself
            command = self.command(
                "start", session_id=session_id, partner_id=partner_id, task_id=task_id, text=text
            )
            return TaskAnswer(await self.a2a.start_notified(partner_id, command, notify_url, token))
        config = await self.call(
            partner_id, "notification/set", {"taskId": task_id, "url": notify_url, "token": token}
        )
        params: dict[str, Any] = {"notificationConfigId": config["id"]}
        if notify_on_states:
            params["notifyOnStates"] = notify_on_states
        command = self.command(
            "start",
            session_id=session_id,
            partner_id=partner_id,
            task_id=task_id,
            text=text,
            params=params,
        )
        return await self.send(partner_id, command, method="notification/start")

    async def continue_task(
        self, partner_id: str, *, session_id: str, task_id: str, text: str | None = None
    ) -> TaskAnswer:
        """Answer a task's question (``awaiting-input``), or send its work back
        (``awaiting-completion``): it is at work again."""
        return await self.send(
            partner_id, self.command("continue", session_id=session_id, task_id=task_id, text=text)
        )

    async def complete(self, partner_id: str, *, session_id: str, task_id: str) -> TaskAnswer:
        """Accept the products of a task at ``awaiting-completion``: it is ``completed``."""
        return await self.send(
            partner_id, self.command("complete", session_id=session_id, task_id=task_id)
        )

    async def cancel(self, partner_id: str, *, session_id: str, task_id: str) -> TaskAnswer:
        return await self.send(
            partner_id, self.command("cancel", session_id=session_id, task_id=task_id)
        )

    async def get(
        self,
        partner_id: str,
        *,
        session_id: str,
        task_id: str,
        last_command_sent_at: datetime | None = None,
        last_state_changed_at: datetime | None = None,
    ) -> TaskAnswer:
        """The task's snapshot; its histories only past the times given (AIP §4.4)."""
        since = {
            "lastCommandSentAt": last_command_sent_at,
            "lastStateChangedAt": last_state_changed_at,
        }
        params = {k: v.isoformat() for k, v in since.items() if v is not None} or None
        command = self.command("get", session_id=session_id, task_id=task_id, params=params)
        return await self.send(partner_id, command)

    def resume_stream(
        self,
        partner_id: str,
        *,
        session_id: str,
        task_id: str,
        last_event_seq: int,
        follow: bool = False,
    ) -> AsyncIterator[TaskEvent]:
        """A task's events again, after ``last_event_seq`` (a dropped stream's last
        ``event.seq``); not recorded at the hub."""
        command = self.command(
            "re-stream",
            session_id=session_id,
            task_id=task_id,
            params={"lastEventSeq": last_event_seq},
        )
        return self.stream(partner_id, command, record=False, follow=follow)

    # -- a task from start to end ---------------------------------------------------------

    async def run(
        self,
        partner_id: str,
        *,
        session_id: str,
        text: str | None = None,
        on_input: Answerer | None = None,
        wait_seconds: float = RUN_WAIT_SECONDS,
        **start: Any,
    ) -> TaskAnswer:
        """Start a task and see it to its end: its last answer, ``completed`` with the
        products when the partner did the work (``answer.text`` their text).

        Where ``start`` stops at the leader's turn, ``run`` takes it: ``awaiting-completion``
        is completed at once; ``awaiting-input`` gets ``await on_input(answer)`` as the
        reply, or without ``on_input`` is returned as it is (the question in ``.text``). A
        task still at work when the partner's rpc wait ends is asked for (``get``) until it
        is not, for ``wait_seconds`` at most. A task that failed or was rejected is
        returned, not raised. Use ``start`` and ``complete`` to look at the products before
        accepting them. ``start``'s other arguments (``task_id``, ``data_items``...) pass on.
        """
        return await run_task(
            self,
            partner_id,
            session_id=session_id,
            text=text,
            on_input=on_input,
            wait_seconds=wait_seconds,
            **start,
        )
