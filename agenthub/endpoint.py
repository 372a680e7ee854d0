"""The agent's endpoint: JSON-RPC ``rpc`` / ``stream`` / ``notification/*`` for its partner
role, and ``/notifications`` for pushes to its leader role. Every call is authenticated by
its call token or by its verified client certificate (mutual TLS); every answer is signed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from agenthub.callbacks import CallbackPolicy, pin_callback
from agenthub.directory import PeerDirectory
from agenthub.errors import CallTokenError, HubRequestError
from agenthub.inbox import NotificationInbox
from agenthub.keys import AgentKey
from agenthub.notify import NOTIFICATION_TOKEN_HEADER
from agenthub.partner import TaskMoveError
from agenthub.protocol.jsonrpc import (
    NotificationConfig,
    NotificationQuery,
    RpcErrorCode,
    RpcRequest,
    rpc_error,
    rpc_result,
)
from agenthub.protocol.messages import TaskCommand, TaskCommandType
from agenthub.runtime import PRIVATE_CONFIG_KEYS, PartnerRuntime, RpcFault
from agenthub.signing import SIGNATURE_HEADER, JtiCache, caller_of, check_call_token, sign_answer
from agenthub.tls import AgentTls, PeerCertificateError, authenticate_peer, client_certificate

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1_048_576


class _Call:
    def __init__(
        self, caller_id: str, nonce: str | None, request_id: str | int | None = None
    ) -> None:
        self.caller_id = caller_id
        self.nonce = nonce
        self.request_id = request_id


STREAM_MAX_SECONDS = 3600.0
"""A partner's stream ends after this long; the leader resumes it with ``re-stream``."""
STREAM_SEND_TIMEOUT_SECONDS = 60.0
"""A stream whose reader takes nothing this long is let go (it may re-stream)."""


class _TimedStream(StreamingResponse):
    """A streaming answer whose every send has a deadline: a leader that stops reading
    holds the partner's memory for a minute, not for ever."""

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


class AgentEndpoint:
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
    ) -> None:
        self.agent_id = agent_id
        self.tls = tls
        self.key = key
        self.directory = directory
        self.runtime = runtime
        self.inbox = inbox
        self.public_url = public_url
        self.callbacks = callbacks or CallbackPolicy()
        self.jtis = JtiCache(started_at)
        self.app = Starlette(
            routes=[
                Route("/", self._rpc, methods=["POST"]),
                Route("/notifications", self._notification, methods=["POST"]),
            ]
        )

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
        its call token, or by both, which must then name the same agent."""
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
                return _Call(certified, nonce=None)
        if not has_token:
            raise CallTokenError("a call token (Authorization: Bearer) is required")
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
            except CallTokenError as exc:
                if refresh or "signature" not in str(exc):
                    raise
        self.jtis.use(str(claims["jti"]), int(claims["exp"]), int(claims["iat"]))
        return _Call(caller_id, str(claims["nonce"]))

    @staticmethod
    def _refused(exc: CallTokenError, *, missing: bool) -> Response:
        code = (
            RpcErrorCode.AUTHENTICATION_REQUIRED if missing else RpcErrorCode.ACCESS_TOKEN_INVALID
        )
        return Response(
            orjson.dumps(rpc_error(None, code, str(exc))),
            status_code=401,
            media_type="application/json",
            headers={"WWW-Authenticate": "Bearer"},
        )

    async def _read(self, request: Request) -> bytes | Response:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return Response(status_code=413)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                return Response(status_code=413)
        return bytes(body)

    # -- JSON-RPC -------------------------------------------------------------------------

    async def _rpc(self, request: Request) -> Response:
        body = await self._read(request)
        if isinstance(body, Response):
            return body
        try:
            call = await self._authenticate(request, body, "")
        except CallTokenError as exc:
            return self._refused(exc, missing="required" in str(exc))
        try:
            rpc = RpcRequest.model_validate_json(body)
        except ValidationError:
            return self._signed(
                rpc_error(None, RpcErrorCode.INVALID_REQUEST, "Not a JSON-RPC 2.0 request."), call
            )
        call.request_id = rpc.id
        try:
            return await self._dispatch(rpc, call)
        except RpcFault as fault:
            return self._signed(rpc_error(rpc.id, fault.code, fault.message, fault.data), call)
        except ValidationError as exc:
            errors = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()]
            return self._signed(
                rpc_error(rpc.id, RpcErrorCode.INVALID_PARAMS, "Invalid params", errors), call
            )
        except TaskMoveError as exc:
            return self._signed(
                rpc_error(rpc.id, RpcErrorCode.UNSUPPORTED_OPERATION, str(exc)), call
            )
        except Exception:
            logger.exception("agent endpoint failed on %s", rpc.method)
            return self._signed(
                rpc_error(rpc.id, RpcErrorCode.INTERNAL_ERROR, "Internal error"), call
            )

    async def _dispatch(self, rpc: RpcRequest, call: _Call) -> Response:
        params = rpc.params or {}
        if rpc.method.startswith("notification/") and rpc.method != "notification/start":
            return self._signed(rpc_result(rpc.id, await self._notification_rpc(rpc, call)), call)
        runtime = self._need_runtime()
        if rpc.method in ("rpc", "notification/start"):
            command = TaskCommand.model_validate(params.get("command"))
            task = await runtime.apply(command, caller_id=call.caller_id)
            if command.command == TaskCommandType.GET:
                return self._signed(rpc_result(rpc.id, task.snapshot()), call)
            notified = "notificationConfigId" in (command.command_params or {})
            await runtime.settle(task, first_state_only=notified)
            if task.published_result is None:
                raise RpcFault(RpcErrorCode.INTERNAL_ERROR, "The task has no state yet.")
            return self._signed(rpc_result(rpc.id, task.published_result), call)
        if rpc.method == "stream":
            return await self._stream(rpc, call, runtime)
        raise RpcFault(RpcErrorCode.METHOD_NOT_FOUND, f"Method {rpc.method!r} not found.")

    def _need_runtime(self) -> PartnerRuntime:
        if self.runtime is None:
            raise RpcFault(RpcErrorCode.UNSUPPORTED_OPERATION, "This agent takes no tasks.")
        return self.runtime

    async def _stream(self, rpc: RpcRequest, call: _Call, runtime: PartnerRuntime) -> Response:
        params = rpc.params or {}
        command = TaskCommand.model_validate(params.get("message"))
        if command.command == TaskCommandType.RE_STREAM:
            task = await runtime.apply(command, caller_id=call.caller_id)
            after = int((command.command_params or {}).get("lastEventSeq") or 0)
        else:
            known = runtime.task_of(call.caller_id, command.task_id)
            after = known.next_seq - 1 if known is not None else 0
            task = await runtime.apply(command, caller_id=call.caller_id)
            if command.command == TaskCommandType.START and known is None:
                after = 0
        events = runtime.events(task, after_seq=after)
        first = None
        async for item in events:
            if item is not None:
                first = item
                break
        if first is None:
            raise RpcFault(RpcErrorCode.INTERNAL_ERROR, "The task produced no event.")

        def frame(seq: int, event: dict[str, Any]) -> bytes:
            data = orjson.dumps(rpc_result(rpc.id, {"eventSeq": seq, "eventData": event}))
            return b"id: %d\ndata: %s\n\n" % (seq, data)

        first_data = orjson.dumps(rpc_result(rpc.id, {"eventSeq": first[0], "eventData": first[1]}))
        signature = sign_answer(
            self.key,
            callee_id=self.agent_id,
            caller_id=call.caller_id,
            nonce=call.nonce,
            signed_bytes=first_data,
        )

        ends = time.monotonic() + STREAM_MAX_SECONDS

        async def body() -> AsyncIterator[bytes]:
            yield frame(*first)
            async for item in events:
                yield b": keep-alive\n\n" if item is None else frame(*item)
                if time.monotonic() > ends:  # the leader goes on with re-stream
                    return

        return _TimedStream(
            body(),
            media_type="text/event-stream",
            headers={
                SIGNATURE_HEADER: signature,
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            },
        )

    async def _notification_rpc(self, rpc: RpcRequest, call: _Call) -> Any:
        runtime = self._need_runtime()
        params = rpc.params or {}
        if rpc.method == "notification/set":
            config = NotificationConfig.model_validate(params)
            try:
                await pin_callback(config.url, self.callbacks)
            except Exception as exc:
                raise RpcFault(RpcErrorCode.INVALID_PARAMS, str(exc)) from exc
            return runtime.set_notification(config, caller_id=call.caller_id)
        query = NotificationQuery.model_validate(params)
        configs = runtime.notification_configs(query.task_id, caller_id=call.caller_id)
        wanted = query.notification_config_id
        if wanted is not None and wanted not in configs:
            raise RpcFault(RpcErrorCode.INVALID_PARAMS, "Unknown notificationConfigId.")
        if rpc.method == "notification/get":
            public = [
                {k: v for k, v in c.items() if k not in PRIVATE_CONFIG_KEYS}
                for i, c in configs.items()
                if wanted in (None, i)
            ]
            return public[0] if wanted else public
        if rpc.method == "notification/delete":
            for config_id in [i for i in configs if wanted in (None, i)]:
                del configs[config_id]
            return {"taskId": query.task_id, "deleted": True}
        raise RpcFault(RpcErrorCode.METHOD_NOT_FOUND, f"Method {rpc.method!r} not found.")

    # -- notifications pushed to us (leader role) -----------------------------------------

    async def _notification(self, request: Request) -> Response:
        body = await self._read(request)
        if isinstance(body, Response):
            return body
        try:
            call = await self._authenticate(request, body, "/notifications")
        except CallTokenError as exc:
            return self._refused(exc, missing="required" in str(exc))
        if self.inbox is None:
            return self._signed({"error": "this agent takes no notifications"}, call, 404)
        try:
            event = orjson.loads(body)
        except orjson.JSONDecodeError:
            return self._signed({"error": "the body is not JSON"}, call, 400)
        if not isinstance(event, dict) or event.get("senderId") != call.caller_id:
            return self._signed({"error": "senderId must be the caller"}, call, 403)
        why = self.inbox.check(
            str(event.get("taskId")),
            sender_id=call.caller_id,
            token=request.headers.get(NOTIFICATION_TOKEN_HEADER),
        )
        if why is not None:
            return self._signed({"error": why}, call, 403)
        new = await self.inbox.receive(call.caller_id, event)
        return self._signed({"received": True, "duplicate": not new}, call)
