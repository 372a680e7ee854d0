"""A leader's calls to AIP partners, on the wire: JSON-RPC over HTTPS with a call token, and
every answer proved to be the partner's (by its signature, checked against the partner's
registered key, or by the partner's certificate from the hub's CA, under mutual TLS). What is
recorded, and whether a partner is called by A2A instead, is ``agenthub.leader``'s."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
from opentelemetry.trace import Span

import agenthub.tracing as tracing
from agenthub.errors import AnswerMismatchError, AnswerSignatureError, CallFailed, KitError
from agenthub.leader_side import LeaderSide
from agenthub.peers import authenticate_peer, peer_certificate
from agenthub.protocol.aic import aic_host
from agenthub.protocol.messages import TaskCommand, TaskState
from agenthub.protocol.tasks import FINAL_STATES
from agenthub.signing import SIGNATURE_HEADER, check_answer, mint_call_token

STREAM_SIGNED_HEADER = "X-Agent-Signature-Covers"  # agenthub.endpoint's, said again: the
# leader imports nothing of the partner's side
LEADERS_TURN = frozenset({TaskState.AWAITING_INPUT, TaskState.AWAITING_COMPLETION} | FINAL_STATES)
"""States where a stream not followed to its end stops: the task waits for the leader."""
ANSWERED_BY_TASK_RESULT = frozenset({"rpc", "notification/start"})


class AipCalls:
    """The calls of one leader to its AIP partners."""

    def __init__(self, leader: LeaderSide) -> None:
        self.leader = leader

    async def endpoint(self, partner_id: str) -> str:
        if partner_id in self.leader.endpoints:
            return self.leader.endpoints[partner_id]
        card = await self.leader.directory.card(partner_id)
        if not card.endpoint_url:
            raise KitError(f"agent {partner_id} has no endpointUrl")
        return card.endpoint_url

    async def _before_call(self, url: str) -> None:
        if url.startswith("http:") and not self.leader.plain_http:
            raise KitError(
                f"{url} is plain http: the leader calls partners over https (pass "
                "plain_http=True for development, or behind a proxy that ends TLS)"
            )
        if self.leader.tls is not None and url.startswith("https:"):
            await self.leader.tls.ensure()  # the certificate this leader presents

    def _handshake(self, partner_id: str, url: str) -> dict[str, Any]:
        """Over https, TLS must verify the partner's own name (``{aic}.aic.invalid``, in
        every certificate of the hub's CA): an impostor fails the handshake, before the
        request is sent."""
        if self.leader.tls is None or not url.startswith("https:"):
            return {}
        return {"sni_hostname": aic_host(partner_id)}

    async def _certified(self, partner_id: str, response: httpx.Response) -> bool:
        """Whether the answer came over TLS from the partner's own certificate (a
        certificate of anyone else is ``PeerCertificateError``)."""
        peer = peer_certificate(response)
        if peer is None or self.leader.tls is None:
            return False
        await authenticate_peer(
            peer,
            revocations=self.leader.tls.revocations,
            card_key=self.leader.directory.key_of,
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
        if not self.leader.verify_answers or (signature is None and certified):
            return
        card = await self.leader.directory.card(partner_id)
        try:
            check_answer(
                signature,
                card.public_jwk,
                callee_id=partner_id,
                caller_id=self.leader.agent_id,
                nonce=nonce,
                signed_bytes=signed,
            )
        except AnswerSignatureError:
            fresh = await self.leader.directory.card(partner_id, refresh=True)
            if fresh.public_jwk == card.public_jwk:
                raise
            check_answer(
                signature,
                fresh.public_jwk,
                callee_id=partner_id,
                caller_id=self.leader.agent_id,
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
            self.leader.hub.key,
            caller_id=self.leader.agent_id,
            callee_id=partner_id,
            method="POST",
            url=url,
            body=body,
        )
        headers = {"Authorization": f"Bearer {call.token}", "Content-Type": "application/json"}
        return body, headers, call.nonce, request_id

    async def exchange(
        self, partner_id: str, method: str, params: dict[str, Any]
    ) -> tuple[Any, httpx.Response, str]:
        """The checked ``result``, the answer itself and the call's nonce."""
        attributes = tracing.aip_attributes(params, partner_id)
        with tracing.span(f"aip.{method}", kind="CLIENT", attributes=attributes) as span:
            result, response, nonce = await self._exchange(partner_id, method, params)
            tracing.set_attributes(span, {"aip.task.state": tracing.task_state(result)})
        return result, response, nonce

    async def _exchange(
        self, partner_id: str, method: str, params: dict[str, Any]
    ) -> tuple[Any, httpx.Response, str]:
        url = await self.endpoint(partner_id)
        await self._before_call(url)
        body, headers, nonce, request_id = self._prepare(partner_id, url, method, params)
        response = await self.leader.http.post(
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

    async def stream(
        self, partner_id: str, command: TaskCommand, *, follow: bool = False
    ) -> AsyncIterator[dict[str, Any]]:
        """Send the command by ``stream``; yield ``{eventSeq, eventData}``, each checked,
        until the task waits for the leader (or, ``follow``, until it ends)."""
        params = {"message": command.to_wire()}
        span = tracing.started(
            "aip.stream", kind="CLIENT", attributes=tracing.aip_attributes(params, partner_id)
        )
        try:
            async for event in self._stream(partner_id, params, span, follow):
                yield event
        finally:
            span.end()

    async def _stream(
        self, partner_id: str, params: dict[str, Any], span: Span, follow: bool
    ) -> AsyncIterator[dict[str, Any]]:
        url = await self.endpoint(partner_id)
        await self._before_call(url)
        body, headers, nonce, request_id = self._prepare(partner_id, url, "stream", params)
        headers["Accept"] = "text/event-stream"
        async with contextlib.AsyncExitStack() as opened:
            with tracing.within(span):  # the request goes as the span's: its traceparent
                response = await opened.enter_async_context(
                    self.leader.http.stream(
                        "POST",
                        url,
                        content=body,
                        headers=headers,
                        extensions=self._handshake(partner_id, url),
                    )
                )
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
                state = (event.get("eventData") or {}).get("status", {}).get("state")
                span.set_attribute("aip.task.state", str(state))
                yield event
                if not follow and state in LEADERS_TURN:
                    return


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
