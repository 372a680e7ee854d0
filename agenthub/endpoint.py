"""The agent's endpoint: JSON-RPC ``rpc`` / ``stream`` / ``notification/*`` for its partner
role, and ``/notifications`` for pushes to its leader role. Every call is authenticated by
its call token or by its verified client certificate (mutual TLS); every answer is signed.

Kept whole: ``AgentEndpoint`` is the module, and says why it is one class.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.types import Message, Receive, Scope, Send

import agenthub.tracing as tracing
from agenthub.a2a.serving import A2A_METHODS, A2AServing
from agenthub.callbacks import CallbackPolicy
from agenthub.directory import PeerDirectory
from agenthub.errors import (
    CallTokenError,
    CallTokenMissing,
    CallTokenUnverified,
    HubRequestError,
    TaskMoveError,
)
from agenthub.hub_tokens import HubTokens, is_hub_access_token
from agenthub.inbox import NotificationInbox
from agenthub.keys import AgentKey
from agenthub.notify import NOTIFICATION_TOKEN_HEADER
from agenthub.open_streams import OpenStreams, Proof, until_ended
from agenthub.partner_rpc import AIP_METHODS, PartnerMethods
from agenthub.peers import PeerCertificateError, authenticate_peer, client_certificate
from agenthub.protocol.jsonrpc import (
    MAX_ID_CHARS,
    RpcErrorCode,
    RpcRequest,
    oversized_id,
    rpc_error,
    rpc_result,
)
from agenthub.protocol.jwk import jwk_thumbprint
from agenthub.protocol.oauth import ClientKind
from agenthub.runtime import PartnerRuntime, RpcFault
from agenthub.signing import SIGNATURE_HEADER, JtiCache, caller_of, check_call_token, sign_answer
from agenthub.tls import AgentTls
from agenthub.transport import taking_request_ids

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1_048_576
MAX_BATCH = 100
"""Requests one JSON-RPC batch may hold."""
A2A_TOKEN_HEADER = "X-A2A-Notification-Token"  # noqa: S105 (a header name)
A2APushed = Callable[[str, str, bytes], "dict[str, Any] | None"]
"""An A2A push's body (for a session's task) as the AIP event the inbox keeps: the leader's."""
STREAM_SIGNED_HEADER = "X-Agent-Signature-Covers"
"""What a stream's signature covers: ``first-event`` (its first data) or ``nothing`` (it
opened with no event due: the empty body)."""


class _Call:
    def __init__(
        self,
        caller_id: str,
        nonce: str | None,
        proof: Proof | None = None,
        kind: ClientKind = "agent",
    ) -> None:
        self.caller_id = caller_id
        self.nonce = nonce
        self.proof = proof or Proof(caller_id)  # what it proved, checked again while it streams
        self.kind = kind  # an agent, or an application the operator registered (OAuth)


STREAM_MAX_SECONDS = 3600.0
"""A partner's stream ends after this long; the leader resumes it with ``re-stream``."""
STREAM_SEND_TIMEOUT_SECONDS = 60.0
"""A stream whose reader takes nothing this long is let go (it may re-stream)."""


class _TimedStream(StreamingResponse):
    """A streaming answer whose every send has a deadline: a leader that stops reading
    holds the partner's memory for a minute, not for ever. ``on_close`` runs when it
    ends, however it ends."""

    def __init__(self, content: AsyncIterator[bytes], *, on_close: Callable[[], None], **kw: Any):
        super().__init__(content, **kw)
        self.on_close = on_close

    def also_on_close(self, callback: Callable[[], None]) -> None:
        first = self.on_close

        def both() -> None:
            first()
            callback()

        self.on_close = both

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def timed(message: Message) -> None:
            async with asyncio.timeout(STREAM_SEND_TIMEOUT_SECONDS):
                await send(message)

        try:
            await super().__call__(scope, receive, timed)
        except TimeoutError:
            logger.info(
                "let go of a stream whose reader took nothing for %ss", STREAM_SEND_TIMEOUT_SECONDS
            )
        finally:
            self.on_close()


class AgentEndpoint:
    """Kept whole: each route authenticates its caller the same way and answers signed by the
    same key, over the same open-stream bookkeeping; what a call does is elsewhere
    (``PartnerMethods``, ``PartnerRuntime``, ``NotificationInbox``).
    """

    def __init__(
        self,
        *,
        agent_id: str,
        key: AgentKey,
        directory: PeerDirectory,
        runtime: PartnerRuntime | None,
        inbox: NotificationInbox | None,
        public_url: str | None,
        callbacks: CallbackPolicy | None = None,
        started_at: float | None = None,
        tls: AgentTls | None = None,
        a2a: A2AServing | None = None,
        a2a_pushed: A2APushed | None = None,
    ) -> None:
        self.agent_id = agent_id
        self.a2a = a2a
        self.a2a_pushed = a2a_pushed
        self.tls = tls
        self.key = key
        self.directory = directory
        self.runtime = runtime
        self.inbox = inbox
        self.public_url = public_url
        self.callbacks = callbacks or CallbackPolicy()
        self.methods = PartnerMethods(runtime, self.callbacks)
        self.jtis = JtiCache(started_at)
        self.hub_tokens = HubTokens(directory, agent_id)
        self.open_streams = OpenStreams(directory, tls.revocations if tls is not None else None)
        routes = Starlette(
            routes=[
                Route("/", self._rpc, methods=["POST"]),
                Route("/notifications", self._notification, methods=["POST"]),
                Route("/notifications/a2a", self._a2a_notification, methods=["POST"]),
                Route("/.well-known/agent-card.json", self._a2a_card, methods=["GET"]),
                # A2A's HTTP+JSON paths (``/message:send``, ``/tasks/{id}``…), at the same URL
                # as JSON-RPC: whatever no route above takes
                Mount("", app=self._a2a_rest),
            ]
        )
        # what its handlers call and record carries the caller's X-Request-ID on
        self.app = taking_request_ids(tracing.asgi(routes))

    # -- proofs ---------------------------------------------------------------------------

    def _signed(self, payload: Any, call: _Call, status: int = 200) -> Response:
        body = orjson.dumps(payload)
        signature = sign_answer(
            self.key,
            callee_id=self.agent_id,
            caller_id=call.caller_id,
            nonce=call.nonce,
            signed_bytes=body,
        )
        return Response(
            body,
            status_code=status,
            media_type="application/json",
            headers={SIGNATURE_HEADER: signature},
        )

    async def _authenticate(self, request: Request, body: bytes, suffix: str) -> _Call:
        """The caller: proved by its verified client certificate (mutual TLS, ACPs AIA), by
        its call token or the hub's OAuth access token for this agent (``HubTokens``), or by
        a certificate and a token, which must then name the same caller."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        has_token = scheme.lower() == "bearer" and bool(token)
        peer = client_certificate(request.scope)
        certified: str | None = None
        if peer is not None and self.tls is not None:
            try:
                certified = await authenticate_peer(
                    peer, revocations=self.tls.revocations, card_key=self.directory.key_of
                )
            except PeerCertificateError as exc:
                raise CallTokenError(f"The client certificate is refused: {exc}.") from exc
            if not has_token:
                return _Call(certified, None, Proof(certified, peer, peer.key_thumbprint))
        if not has_token:
            raise CallTokenMissing(
                "This call needs a credential: a call token or the hub's OAuth access token "
                "(Authorization: Bearer), or a client certificate from the hub's CA."
            )
        if is_hub_access_token(token):  # the hub's OAuth token: a bearer, not bound to the call
            caller_id, kind, thumbprint = await self.hub_tokens.proved(token)
            if certified is not None and caller_id != certified:
                raise CallTokenError(
                    f"The access token is {caller_id}'s but the client certificate {certified}'s."
                )
            certificate = peer if certified is not None else None
            return _Call(caller_id, None, Proof(caller_id, certificate, thumbprint), kind)
        caller_id = caller_of(token)
        if certified is not None and caller_id != certified:
            raise CallTokenError(
                f"The call token is {caller_id}'s but the client certificate {certified}'s."
            )
        # the URL the token must name: the configured public one, never one made of the
        # request's Host header (the caller's to choose); only without one, the request's
        if self.public_url:
            urls = {self.public_url.rstrip("/") + suffix if suffix else self.public_url}
        else:
            urls = {str(request.url)}
        claims: dict[str, Any] = {}
        for refresh in (False, True):  # a signature failure may mean the key rotated: refetch
            try:
                card = await self.directory.card(caller_id, refresh=refresh)
            except HubRequestError as exc:
                raise CallTokenError("the caller is not a registered agent") from exc
            except Exception as exc:  # the hub away, a timeout, an answer that is no card
                logger.warning("could not look up caller %s: %s", caller_id, exc)
                raise CallTokenError("the caller could not be looked up at the hub") from exc
            try:
                claims = check_call_token(
                    token,
                    card.public_jwk,
                    caller_id=caller_id,
                    callee_id=self.agent_id,
                    method=request.method,
                    urls=urls,
                    body=body,
                )
                break
            except CallTokenUnverified:
                if refresh:
                    raise
        self.jtis.use(str(claims["jti"]), int(claims["exp"]), int(claims["iat"]))
        proof = Proof(caller_id, peer if certified else None, jwk_thumbprint(card.public_jwk))
        return _Call(caller_id, str(claims["nonce"]), proof)

    @staticmethod
    def _refused(
        exc: CallTokenError,
        *,
        missing: bool,
        request: RpcRequest | dict[str, Any] | None = None,
    ) -> Response:
        """A refused caller: HTTP 401 naming the scheme, and a JSON-RPC error answering the
        request's id. An AIP request gets AIP's own codes (AuthenticationRequired -32008,
        AccessTokenInvalid -32010); an A2A one, whose v1.0 codes give -32008 and -32009 to
        other errors (ExtensionSupportRequired, VersionNotSupported) and name none for
        authentication, JSON-RPC's Invalid Request (-32600) with the reason in the
        ``google.rpc.ErrorInfo`` A2A's other bindings carry."""
        request_id = request.id if isinstance(request, RpcRequest) else None
        if isinstance(request, RpcRequest) and request.method in A2A_METHODS:
            reason = "AUTHENTICATION_REQUIRED" if missing else "ACCESS_TOKEN_INVALID"
            info = {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "a2a-protocol.org",
            }
            error = rpc_error(request_id, RpcErrorCode.INVALID_REQUEST, str(exc), [info])
        else:
            code = (
                RpcErrorCode.AUTHENTICATION_REQUIRED
                if missing
                else RpcErrorCode.ACCESS_TOKEN_INVALID
            )
            error = rpc_error(request_id, code, str(exc))
        return Response(
            orjson.dumps(error),
            status_code=401,
            media_type="application/json",
            headers={"WWW-Authenticate": "Bearer"},
        )

    async def _read(self, request: Request) -> bytes | Response:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return Response(status_code=413)
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    return Response(status_code=413)
        except ClientDisconnect:  # gone, or cut off (408) while its body stalled
            return Response(status_code=400)  # to no one: the connection is closed
        return bytes(body)

    # -- JSON-RPC -------------------------------------------------------------------------

    async def _rpc(self, request: Request) -> Response:
        """JSON-RPC 2.0 over HTTP: one request, or a batch of them (answered in one array);
        a request without an ``id`` (or with a null one, AIP 5.1) is a notification, done
        and not answered (204 when nothing is answered).

        The framing is checked before the caller is: a body that is no JSON is ``-32700``,
        one that is no JSON-RPC request ``-32600``, a method this agent does not serve
        ``-32601``, each with HTTP 200 whoever asks (JSON-RPC's errors, as a2a-sdk's own
        server answers them). A body with something to run needs a proved caller (401)."""
        body = await self._read(request)
        if isinstance(body, Response):
            return body
        items, batched = self._framed(body)
        if not any(isinstance(item, RpcRequest) for item in items):  # nothing to run
            answers = [item for item in items if item is not None]
            if not answers:
                return Response(status_code=204)
            call = await self._caller_if_any(request, body)
            return self._answer(answers if batched else answers[0], call)
        try:
            call = await self._authenticate(request, body, "")
        except CallTokenError as exc:
            missing = isinstance(exc, CallTokenMissing)
            if missing and self.a2a is not None and self.a2a.takes_anonymous(body):
                return await self.a2a.answer(request, body, None)
            return self._refused(exc, missing=missing, request=None if batched else items[0])
        first = items[0]
        if not batched and isinstance(first, RpcRequest) and first.method in A2A_METHODS:
            assert self.a2a is not None  # A2A's methods are served only with A2A
            a2a_answer = await self.a2a.answer(request, body, call.caller_id, call.kind)
            return self.open_streams.watched(a2a_answer, call.proof)
        answers = []
        for item in items:
            answer = await self._one(item, call, batched) if isinstance(item, RpcRequest) else item
            if isinstance(answer, Response):
                return answer
            if answer:
                answers.append(answer)
        if not answers:
            return Response(status_code=204)
        return self._signed(answers if batched else answers[0], call)

    def _framed(self, body: bytes) -> tuple[list[RpcRequest | dict[str, Any] | None], bool]:
        """The body's requests, each an ``RpcRequest`` to run, the error that answers it, or
        None (a notification there is nothing to do for); and whether they came as a batch."""
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            return [rpc_error(None, RpcErrorCode.PARSE_ERROR, "Parse error")], False
        if not isinstance(parsed, list):
            return [self._envelope(parsed)], False
        if not parsed or len(parsed) > MAX_BATCH:
            why = f"A batch holds 1 to {MAX_BATCH} requests."
            return [rpc_error(None, RpcErrorCode.INVALID_REQUEST, why)], False
        return [self._envelope(item) for item in parsed], True

    def _envelope(self, item: Any) -> RpcRequest | dict[str, Any] | None:
        request_id = item.get("id") if isinstance(item, dict) else None
        if not isinstance(request_id, str | int) or isinstance(request_id, bool):
            request_id = None
        if oversized_id(request_id):  # refused, and not echoed
            why = f"A JSON-RPC id is at most {MAX_ID_CHARS} characters."
            return rpc_error(None, RpcErrorCode.INVALID_REQUEST, why)
        try:
            rpc = RpcRequest.model_validate(item)
        except ValidationError:
            return rpc_error(
                request_id, RpcErrorCode.INVALID_REQUEST, "Not a JSON-RPC 2.0 request."
            )
        if rpc.method in AIP_METHODS or (self.a2a is not None and rpc.method in A2A_METHODS):
            return rpc
        if rpc.id is None:
            return None  # a notification is never answered, not even with an error
        return rpc_error(rpc.id, RpcErrorCode.METHOD_NOT_FOUND, f"Method {rpc.method!r} not found.")

    async def _caller_if_any(self, request: Request, body: bytes) -> _Call | None:
        """The caller, when the request proves one (its answer is then signed); else None."""
        try:
            return await self._authenticate(request, body, "")
        except CallTokenError:
            return None

    async def _one(
        self, rpc: RpcRequest, call: _Call, batched: bool
    ) -> dict[str, Any] | Response | None:
        """One request's answer: a JSON-RPC response, a stream, or None for a notification."""
        attributes = tracing.aip_attributes(rpc.params, self.agent_id)
        span = tracing.started(f"aip.{rpc.method}", kind="SERVER", attributes=attributes)
        lasting = False
        try:
            with tracing.within(span):
                answer = await self._answer_one(rpc, call, batched)
            if isinstance(answer, dict):
                state = tracing.task_state(answer.get("result"))
                tracing.set_attributes(span, {"aip.task.state": state})
            elif isinstance(answer, _TimedStream):  # a stream's span lasts as long as it does
                answer.also_on_close(span.end)
                lasting = True
            return answer
        finally:
            if not lasting:
                span.end()

    async def _answer_one(
        self, rpc: RpcRequest, call: _Call, batched: bool
    ) -> dict[str, Any] | Response | None:
        notice = rpc.id is None
        try:
            if rpc.method == "stream" and not notice:
                if batched:
                    why = "A stream is a request of its own, never part of a batch."
                    raise RpcFault(RpcErrorCode.INVALID_REQUEST, why)
                return await self._stream(rpc, call)
            result = await self.methods.result(rpc, call.caller_id)
            answer = rpc_result(rpc.id, result)
        except RpcFault as fault:
            answer = rpc_error(rpc.id, fault.code, fault.message, fault.data)
        except ValidationError as exc:
            errors = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()]
            answer = rpc_error(rpc.id, RpcErrorCode.INVALID_PARAMS, "Invalid params", errors)
        except TaskMoveError as exc:
            answer = rpc_error(rpc.id, RpcErrorCode.UNSUPPORTED_OPERATION, str(exc))
        except Exception:
            logger.exception("agent endpoint failed on %s", rpc.method)
            answer = rpc_error(rpc.id, RpcErrorCode.INTERNAL_ERROR, "Internal error")
        return None if notice else answer

    async def _stream(self, rpc: RpcRequest, call: _Call) -> Response:
        """The stream's first data is signed: its first event, the error it carries
        (expired events), or, when nothing is due yet, nothing (``STREAM_SIGNED_HEADER``
        says which). It counts as open from its command until the response ends."""
        release = self.open_streams.hold(call.proof, _task_id_of(rpc))
        try:
            opening = await self.methods.stream(rpc, call.caller_id)
            signature = sign_answer(
                self.key,
                callee_id=self.agent_id,
                caller_id=call.caller_id,
                nonce=call.nonce,
                signed_bytes=opening.first,
            )
        except BaseException:
            release()
            raise
        ends = time.monotonic() + STREAM_MAX_SECONDS

        span = tracing.current_span()  # the stream's, which ends with it (``_one``)

        def frame(seq: int | None, data: bytes) -> bytes:
            if span.is_recording():  # the state the stream last showed
                state = tracing.task_state(orjson.loads(data).get("result"))
                tracing.set_attributes(span, {"aip.task.state": state})
            return (b"" if seq is None else b"id: %d\n" % seq) + b"data: %s\n\n" % data

        async def body() -> AsyncIterator[bytes]:
            if opening.first:
                yield frame(opening.first_seq, opening.first)
            # to its end, unless its caller no longer is who it proved to be (``OpenStreams``)
            async for item in until_ended(opening.rest, call.proof.ended):
                yield b": keep-alive\n\n" if item is None else frame(*item)
                if time.monotonic() > ends:  # the leader goes on with re-stream
                    return

        return _TimedStream(
            body(),
            on_close=release,
            media_type="text/event-stream",
            headers={
                SIGNATURE_HEADER: signature,
                STREAM_SIGNED_HEADER: "first-event" if opening.first else "nothing",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            },
        )

    async def _a2a_rest(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A2A's HTTP+JSON binding (at the endpoint's URL), by a2a-sdk's routes: its caller
        proved as on JSON-RPC (a call token then names the whole URL, query and all);
        authentication failures are 401 in the binding's error shape."""
        request = Request(scope, receive)
        if self.a2a is None:
            await Response(status_code=404)(scope, receive, send)
            return
        body = await self._read(request)
        if isinstance(body, Response):
            await body(scope, receive, send)
            return
        suffix = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        kind: ClientKind = "agent"
        try:
            call = await self._authenticate(request, body, suffix)
            caller_id: str | None = call.caller_id
            kind = call.kind
        except CallTokenError as exc:
            below = request.url.path.removeprefix(scope.get("root_path", ""))
            missing = isinstance(exc, CallTokenMissing)
            if not (missing and self.a2a.takes_anonymous_rest(request.method, below)):
                await _rest_refused(exc, missing=missing)(scope, receive, send)
                return
            caller_id = None
        answer = self.a2a.answer_rest(scope, receive, send, body, caller_id, kind)
        if caller_id is not None and request.url.path.endswith((":stream", ":subscribe")):
            await self.open_streams.serve_watched(answer, call.proof)  # as on JSON-RPC
            return
        await answer

    async def _a2a_card(self, request: Request) -> Response:
        """The agent's A2A Agent Card, made from its registry card (404 without A2A)."""
        if self.a2a is None:
            return Response(status_code=404)
        return await self.a2a.card(request)

    # -- notifications pushed to us (leader role) -----------------------------------------

    async def _notification(self, request: Request) -> Response:
        """A push (GB/Z A.3, AIP 6.3.5). Its sender is proved by its client certificate or
        call token, or, as AIP has it, by the ``X-ACPs-AIP-Notification-Token`` this
        leader gave for the task alone (a partner that holds neither, behind a proxy that
        ends TLS); then the body's ``senderId`` must be the task's partner."""
        body = await self._read(request)
        if isinstance(body, Response):
            return body
        aip_token = request.headers.get(NOTIFICATION_TOKEN_HEADER)
        try:
            call: _Call | None = await self._authenticate(request, body, "/notifications")
        except CallTokenError as exc:
            missing = isinstance(exc, CallTokenMissing)
            if not (missing and aip_token):
                return self._refused(exc, missing=missing)
            call = None
        if self.inbox is None:
            return self._answer({"error": "this agent takes no notifications"}, call, 404)
        try:
            event = orjson.loads(body)
        except orjson.JSONDecodeError:
            return self._answer({"error": "the body is not JSON"}, call, 400)
        if not isinstance(event, dict) or not isinstance(event.get("senderId"), str):
            return self._answer({"error": "the body is no TaskResult"}, call, 400)
        sender = call.caller_id if call is not None else str(event["senderId"])
        if event.get("senderId") != sender:
            return self._answer({"error": "senderId must be the caller"}, call, 403)
        session_id = event.get("sessionId")
        why = self.inbox.check(
            str(event.get("taskId")),
            sender_id=sender,
            token=aip_token,
            token_only=call is None,
            session_id=session_id if isinstance(session_id, str) else None,
        )
        if why is not None:
            return self._answer({"error": why}, call, 403 if call is not None else 401)
        new = await self.inbox.receive(sender, event)
        return self._answer({"received": True, "duplicate": not new}, call)

    async def _a2a_notification(self, request: Request) -> Response:
        """An A2A agent's push for a task this leader started by A2A (``Leader.start_notified``):
        the push URL names the task, and the ``X-A2A-Notification-Token`` this leader gave
        for that task alone is its proof."""
        body = await self._read(request)
        if isinstance(body, Response):
            return body
        session_id = request.query_params.get("session", "")
        task_id = request.query_params.get("task", "")
        expected = None
        if self.inbox is not None:
            expected = self.inbox.expectation(task_id, session_id=session_id)
        if expected is None or self.inbox is None or self.a2a_pushed is None:
            return self._answer({"error": "no notifications were asked for this task"}, None, 404)
        token = request.headers.get(A2A_TOKEN_HEADER)
        why = self.inbox.check(
            task_id,
            sender_id=expected.partner_id,
            token=token,
            token_only=True,
            session_id=session_id,
        )
        if why is not None:
            return self._answer({"error": why}, None, 401)
        event = self.a2a_pushed(session_id, task_id, body)
        if event is None:
            return self._answer({"error": "the body is no A2A StreamResponse"}, None, 400)
        new = await self.inbox.receive(expected.partner_id, event)
        return self._answer({"received": True, "duplicate": not new}, None)

    def _answer(self, payload: Any, call: _Call | None, status: int = 200) -> Response:
        """Signed to a caller proved by certificate or call token; plain JSON otherwise."""
        if call is not None:
            return self._signed(payload, call, status)
        return Response(orjson.dumps(payload), status_code=status, media_type="application/json")


def _rest_refused(exc: CallTokenError, *, missing: bool) -> Response:
    """A refused caller on the HTTP+JSON binding: 401, its error as a2a-sdk's REST errors
    are shaped (``google.rpc.Status`` in JSON), and the scheme named."""
    reason = "AUTHENTICATION_REQUIRED" if missing else "ACCESS_TOKEN_INVALID"
    error = {
        "code": 401,
        "status": "UNAUTHENTICATED",
        "message": str(exc),
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "a2a-protocol.org",
            }
        ],
    }
    return Response(
        orjson.dumps({"error": error}),
        status_code=401,
        media_type="application/json",
        headers={"WWW-Authenticate": "Bearer"},
    )


def _task_id_of(rpc: RpcRequest) -> str | None:
    """The task a stream's command names, read before the command is (None: none named)."""
    message = (rpc.params or {}).get("message")
    task_id = message.get("taskId") if isinstance(message, dict) else None
    return task_id if isinstance(task_id, str) else None
