"""The leader's side: sessions at the hub, tasks at partners by rpc, stream or notification.

Every call carries a call token. Every answer is proved to be the partner's: by its signature,
checked against the partner's registered key, or, over HTTPS, by the partner's certificate
from the hub's CA (mutual TLS: the leader presents its own), which must name the partner and
hold its registered key. A peer that cannot sign (an acps-sdk server) is called over HTTPS.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import httpx
import orjson

from agenthub.directory import PeerDirectory
from agenthub.errors import AnswerMismatchError, AnswerSignatureError, CallFailed, KitError
from agenthub.hub import HubClient
from agenthub.inbox import NotificationInbox
from agenthub.paths import segment
from agenthub.protocol.aic import aic_host
from agenthub.protocol.messages import TaskCommand, TaskState
from agenthub.protocol.sessions import SessionView
from agenthub.protocol.tasks import FINAL_STATES
from agenthub.recorder import HubRecorder
from agenthub.signing import SIGNATURE_HEADER, check_answer, mint_call_token
from agenthub.tls import AgentTls, authenticate_peer, peer_certificate
from agenthub.transport import http_client

if TYPE_CHECKING:
    from agenthub.a2a.calls import A2ACalls

RECORD_FLUSH_SECONDS = 2.0
CALL_TIMEOUT_SECONDS = 60.0
STREAM_SIGNED_HEADER = "X-Agent-Signature-Covers"  # agenthub.endpoint's, said again: the
# leader imports nothing of the partner's side
LEADERS_TURN = frozenset({TaskState.AWAITING_INPUT, TaskState.AWAITING_COMPLETION} | FINAL_STATES)
"""States where a stream not followed to its end stops: the task waits for the leader."""
ANSWERED_BY_TASK_RESULT = frozenset({"rpc", "notification/start"})


def _text(text: str | None) -> list[dict[str, Any]] | None:
    return [{"type": "text", "text": text}] if text else None


def leader_command(
    name: str,
    *,
    sender_id: str,
    session_id: str,
    task_id: str | None,
    partner_id: str | None = None,
    data_items: list[dict[str, Any]] | None = None,
    params: dict[str, Any] | None = None,
    **extra: Any,
) -> TaskCommand:
    """A leader's command, sent now with a fresh id (the A2A bridge's, on its caller's
    behalf, too)."""
    return TaskCommand.model_validate(
        {
            "id": f"cmd-{uuid.uuid4().hex}",
            "sentAt": datetime.now(UTC),
            "senderRole": "leader",
            "senderId": sender_id,
            "sessionId": session_id,
            "command": name,
            "taskId": task_id,
            "partnerId": partner_id,
            "dataItems": data_items,
            "commandParams": params,
            **extra,
        }
    )


class Leader:
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
        self.endpoints = dict(endpoints or {})
        self._a2a: A2ACalls | None = None

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
            data_items=data_items or _text(text),
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

    # -- calls -----------------------------------------------------------------------------

    async def _endpoint(self, partner_id: str) -> str:
        if partner_id in self.endpoints:
            return self.endpoints[partner_id]
        card = await self.directory.card(partner_id)
        if not card.endpoint_url:
            raise KitError(f"agent {partner_id} has no endpointUrl")
        return card.endpoint_url

    async def _before_call(self, url: str) -> None:
        if url.startswith("http:") and not self.plain_http:
            raise KitError(
                f"{url} is plain http: the leader calls partners over https (pass "
                "plain_http=True for development, or behind a proxy that ends TLS)"
            )
        if self.tls is not None and url.startswith("https:"):
            await self.tls.ensure()  # the certificate this leader presents

    def _handshake(self, partner_id: str, url: str) -> dict[str, Any]:
        """Over https, TLS must verify the partner's own name (``{aic}.aic.invalid``, in
        every certificate of the hub's CA): an impostor fails the handshake, before the
        request is sent."""
        if self.tls is None or not url.startswith("https:"):
            return {}
        return {"sni_hostname": aic_host(partner_id)}

    async def _certified(self, partner_id: str, response: httpx.Response) -> bool:
        """Whether the answer came over TLS from the partner's own certificate (a
        certificate of anyone else is ``PeerCertificateError``)."""
        peer = peer_certificate(response)
        if peer is None or self.tls is None:
            return False
        await authenticate_peer(
            peer,
            revocations=self.tls.revocations,
            card_key=self.directory.key_of,
            expected=partner_id,
        )
        return True

    async def _check(
        self,
        partner_id: str,
        signature: str | None,
        nonce: str,
        signed: bytes,
        certified: bool = False,
    ) -> None:
        if not self.verify_answers or (signature is None and certified):
            return
        card = await self.directory.card(partner_id)
        try:
            check_answer(
                signature,
                card.public_jwk,
                callee_id=partner_id,
                caller_id=self.agent_id,
                nonce=nonce,
                signed_bytes=signed,
            )
        except AnswerSignatureError:
            fresh = await self.directory.card(partner_id, refresh=True)
            if fresh.public_jwk == card.public_jwk:
                raise
            check_answer(
                signature,
                fresh.public_jwk,
                callee_id=partner_id,
                caller_id=self.agent_id,
                nonce=nonce,
                signed_bytes=signed,
            )

    def _prepare(
        self, partner_id: str, url: str, method: str, params: dict[str, Any]
    ) -> tuple[bytes, dict[str, str], str, str]:
        request_id = uuid.uuid4().hex
        body = orjson.dumps(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        )
        call = mint_call_token(
            self.hub.key,
            caller_id=self.agent_id,
            callee_id=partner_id,
            method="POST",
            url=url,
            body=body,
        )
        headers = {"Authorization": f"Bearer {call.token}", "Content-Type": "application/json"}
        return body, headers, call.nonce, request_id

    async def call(self, partner_id: str, method: str, params: dict[str, Any]) -> Any:
        """One JSON-RPC call to the partner; the checked ``result``."""
        return (await self._call(partner_id, method, params))[0]

    async def _call(
        self, partner_id: str, method: str, params: dict[str, Any]
    ) -> tuple[Any, httpx.Response, str]:
        """The checked ``result``, the answer itself and the call's nonce."""
        url = await self._endpoint(partner_id)
        await self._before_call(url)
        body, headers, nonce, request_id = self._prepare(partner_id, url, method, params)
        response = await self.http.post(
            url, content=body, headers=headers, extensions=self._handshake(partner_id, url)
        )
        certified = await self._certified(partner_id, response)
        if response.status_code != 200:
            raise CallFailed(
                f"{partner_id} refused the call: HTTP {response.status_code} {response.text[:200]}",
                status=response.status_code,
            )
        await self._check(
            partner_id, response.headers.get(SIGNATURE_HEADER), nonce, response.content, certified
        )
        answer = orjson.loads(response.content)
        sender = partner_id if method in ANSWERED_BY_TASK_RESULT else None
        result = self._result(answer, request_id, sender)
        return result, response, nonce

    @staticmethod
    def _result(answer: Any, request_id: str, sender_id: str | None) -> Any:
        """The ``result`` of the answer to request ``request_id``, whose payload must be
        ``sender_id``'s (AIP 6.0), if given; the error it carries raised."""
        if not isinstance(answer, dict):
            raise CallFailed("The answer is not a JSON-RPC response.")
        if answer.get("id") not in (request_id, None) or (
            answer.get("id") is None and not answer.get("error")
        ):
            raise AnswerMismatchError(
                f"The answer is to request {answer.get('id')!r}, not to {request_id!r}."
            )
        if answer.get("error"):
            error = answer["error"]
            raise CallFailed(
                f"JSON-RPC error {error.get('code')}: {error.get('message')}",
                code=error.get("code"),
                data=error.get("data"),
            )
        result = answer.get("result")
        if sender_id is not None:
            payload = result.get("eventData", result) if isinstance(result, dict) else None
            if not isinstance(payload, dict) or payload.get("senderId") != sender_id:
                got = payload.get("senderId") if isinstance(payload, dict) else None
                raise AnswerMismatchError(
                    f"The answer's senderId is {got!r}, not the partner called ({sender_id}).",
                    data={"senderId": got},
                )
        return result

    async def send(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, method: str = "rpc"
    ) -> dict[str, Any]:
        """Record the command at the hub, send it by ``rpc`` (or ``notification/start``),
        return the TaskResult."""
        if await self._by_a2a(partner_id):
            return await self.a2a.send(partner_id, command, record=record)
        await self.record_command(command, record)
        params = {"command" if method == "rpc" else "message": command.to_wire()}
        result, answer, nonce = await self._call(partner_id, method, params)
        if not isinstance(result, dict):
            raise CallFailed("The rpc result is not a TaskResult.")
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
        return result

    async def stream(
        self, partner_id: str, command: TaskCommand, *, record: bool = True, follow: bool = False
    ) -> AsyncIterator[dict[str, Any]]:
        """Send the command by ``stream``; yield ``{eventSeq, eventData}``. The partner
        keeps the stream open until the task ends (AIP 6.2); ``follow``: read it that far
        (the task's next commands go by ``rpc`` meanwhile), else stop where the task waits
        for the leader, closing it."""
        if await self._by_a2a(partner_id):
            async for event in self.a2a.stream(partner_id, command, record=record, follow=follow):
                yield event
            return
        await self.record_command(command, record)
        url = await self._endpoint(partner_id)
        await self._before_call(url)
        body, headers, nonce, request_id = self._prepare(
            partner_id, url, "stream", {"message": command.to_wire()}
        )
        headers["Accept"] = "text/event-stream"
        async with self.http.stream(
            "POST", url, content=body, headers=headers, extensions=self._handshake(partner_id, url)
        ) as response:
            certified = await self._certified(partner_id, response)
            if response.status_code != 200:
                await response.aread()
                raise CallFailed(
                    f"{partner_id} refused the stream: HTTP {response.status_code}",
                    status=response.status_code,
                )
            signature = response.headers.get(SIGNATURE_HEADER)
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                content = await response.aread()
                await self._check(partner_id, signature, nonce, content, certified)
                self._result(orjson.loads(content), request_id, None)
                raise CallFailed("The partner answered a stream call without a stream.")
            unchecked = True
            if response.headers.get(STREAM_SIGNED_HEADER) == "nothing":
                await self._check(partner_id, signature, nonce, b"", certified)
                unchecked = False
            async for data in _sse_data(response.aiter_lines()):
                if unchecked:
                    await self._check(partner_id, signature, nonce, data, certified)
                    unchecked = False
                event = dict(self._result(orjson.loads(data), request_id, partner_id))
                yield event
                state = (event.get("eventData") or {}).get("status", {}).get("state")
                if not follow and state in LEADERS_TURN:
                    return

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
    ) -> dict[str, Any]:
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
    ) -> AsyncIterator[dict[str, Any]]:
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
    ) -> dict[str, Any]:
        """Ask for pushes to ``notify_url``, then start; the answer is only the first state."""
        task_id = task_id or f"task-{uuid.uuid4().hex}"
        token = uuid.uuid4().hex
        if self.inbox is not None:
            self.inbox.expect(task_id, partner_id=partner_id, token=token, session_id=session_id)
        if await self._by_a2a(partner_id):  # an A2A push config on the message itself
            command = self.command(
                "start", session_id=session_id, partner_id=partner_id, task_id=task_id, text=text
            )
            return await self.a2a.start_notified(partner_id, command, notify_url, token)
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
    ) -> dict[str, Any]:
        return await self.send(
            partner_id, self.command("continue", session_id=session_id, task_id=task_id, text=text)
        )

    async def complete(self, partner_id: str, *, session_id: str, task_id: str) -> dict[str, Any]:
        return await self.send(
            partner_id, self.command("complete", session_id=session_id, task_id=task_id)
        )

    async def cancel(self, partner_id: str, *, session_id: str, task_id: str) -> dict[str, Any]:
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
    ) -> dict[str, Any]:
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
    ) -> AsyncIterator[dict[str, Any]]:
        command = self.command(
            "re-stream",
            session_id=session_id,
            task_id=task_id,
            params={"lastEventSeq": last_event_seq},
        )
        return self.stream(partner_id, command, record=False, follow=follow)


async def _sse_data(lines: AsyncIterator[str]) -> AsyncIterator[bytes]:
    """The ``data`` of each server-sent event, as the bytes the partner signed."""
    data: list[str] = []
    async for line in lines:
        if not line:
            if data:
                yield "\n".join(data).encode()
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield "\n".join(data).encode()
