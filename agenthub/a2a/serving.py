"""What the endpoint needs of A2A: which requests are A2A, the anonymous callers' gate, the
Agent Card route, and the bridge (``agenthub.a2a.server``), made on the first A2A request so
that an agent without A2A never imports a2a-sdk."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import TYPE_CHECKING, Any

import httpx
import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from agenthub.a2a import A2AOptions
from agenthub.a2a.anonymous import AnonymousGate
from agenthub.callbacks import CallbackPolicy, check_callback_form
from agenthub.directory import PEER_CACHE_SECONDS, PeerDirectory
from agenthub.errors import HubRequestError, UnsafeCallbackError
from agenthub.hub import HubClient
from agenthub.paths import segment
from agenthub.protocol.oauth import ClientKind
from agenthub.recorder import HubRecorder
from agenthub.runtime import PartnerRuntime

if TYPE_CHECKING:
    from a2a.types import AgentCard as A2ACard

    from agenthub.a2a.server import A2ABridge, CallerUser

logger = logging.getLogger(__name__)

V10_METHODS = frozenset(
    {
        "SendMessage",
        "SendStreamingMessage",
        "GetTask",
        "ListTasks",
        "CancelTask",
        "SubscribeToTask",
        "CreateTaskPushNotificationConfig",
        "GetTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigs",
        "DeleteTaskPushNotificationConfig",
        "GetExtendedAgentCard",
    }
)
V03_METHODS = frozenset(
    {
        "message/send",
        "message/stream",
        "tasks/get",
        "tasks/cancel",
        "tasks/resubscribe",
        "tasks/pushNotificationConfig/set",
        "tasks/pushNotificationConfig/get",
        "tasks/pushNotificationConfig/list",
        "tasks/pushNotificationConfig/delete",
        "agent/getAuthenticatedExtendedCard",
    }
)
A2A_METHODS = V10_METHODS | V03_METHODS
ANONYMOUS_METHODS = frozenset(
    {"SendMessage", "SendStreamingMessage", "message/send", "message/stream"}
)
"""The JSON-RPC methods of A2A v1.0 and v0.3; AIP's (``rpc``, ``stream``, ``notification/*``)
are others, so both share the endpoint's one URL."""
ANONYMOUS_REST_PATHS = frozenset(
    {"/message:send", "/message:stream", "/v1/message:send", "/v1/message:stream"}
)
"""The HTTP+JSON paths (below the binding's URL; v1.0's, then v0.3's) of a send and a
stream: what an anonymous caller may ask for."""


def _card_unavailable(exc: Exception) -> Response:
    """The answer while the agent's own card cannot be read at the hub (it is away)."""
    logger.warning("could not read the agent's own card at the hub: %s", exc)
    return JSONResponse(
        {"error": "the agent's card is not available now; try again"},
        status_code=503,
        headers={"Retry-After": "1"},
    )


class A2AServing:
    def __init__(
        self,
        *,
        agent_id: str,
        options: A2AOptions,
        runtime: PartnerRuntime,
        recorder: HubRecorder | None,
        hub: HubClient,
        directory: PeerDirectory,
        callbacks: CallbackPolicy,
        public_url: str | None,
    ) -> None:
        self.agent_id = agent_id
        self.options = options
        self.runtime = runtime
        self.recorder = recorder
        self.hub = hub
        self.directory = directory
        self.callbacks = callbacks
        self.public_url = public_url
        self.gate = AnonymousGate(options.anonymous_per_second) if options.anonymous else None
        self._bridge: A2ABridge | None = None
        self._signed: tuple[dict[str, Any] | None, float] | None = None

    def takes_anonymous(self, body: bytes) -> bool:
        """Whether a request that proved no caller is answered: an A2A send, when the agent
        serves anonymous callers. Nothing ties two anonymous requests to one caller, so
        each is a caller of its own: a send or a stream, never a get, cancel, resubscribe or
        push config of a task (another's, for all the partner could tell)."""
        if self.gate is None:
            return False
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            return False
        return isinstance(parsed, dict) and parsed.get("method") in ANONYMOUS_METHODS

    async def bridge(self, request: Request) -> A2ABridge:
        """The bridge, made on the first A2A request, with the agent's own card."""
        if self._bridge is None:
            from agenthub.a2a.server import A2ABridge

            bridge = A2ABridge(
                agent_id=self.agent_id,
                runtime=self.runtime,
                recorder=self.recorder,
                callbacks=self.callbacks,
                push_url_ok=self._push_url_ok,
                card=await self._card(request),
            )
            if self._bridge is None:
                self._bridge = bridge
            else:  # another request made one meanwhile
                await bridge.aclose()
        return self._bridge

    async def aclose(self) -> None:
        if self._bridge is not None:
            await self._bridge.aclose()

    def takes_anonymous_rest(self, method: str, path: str) -> bool:
        """``takes_anonymous`` for the HTTP+JSON binding (``path`` below its URL): a send or
        a stream, v1.0's or v0.3's, when the agent serves anonymous callers."""
        if self.gate is None:
            return False
        return method == "POST" and path.rstrip("/") in ANONYMOUS_REST_PATHS

    async def answer(
        self, request: Request, body: bytes, caller_id: str | None, kind: ClientKind = "agent"
    ) -> Response:
        """A JSON-RPC request's answer for ``caller_id`` of ``kind`` (None: an anonymous
        caller)."""
        caller = self._caller(request, caller_id, kind)
        if isinstance(caller, Response):
            return caller
        try:
            bridge = await self.bridge(request)
        except (HubRequestError, httpx.HTTPError) as exc:
            return _card_unavailable(exc)
        return await bridge.answer(request, body, caller)

    async def answer_rest(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        body: bytes,
        caller_id: str | None,
        kind: ClientKind = "agent",
    ) -> None:
        """An HTTP+JSON request's answer for ``caller_id`` of ``kind`` (None: an anonymous
        caller)."""
        request = Request(scope, receive)
        caller = self._caller(request, caller_id, kind)
        if isinstance(caller, Response):
            await caller(scope, receive, send)
            return
        try:
            bridge = await self.bridge(request)
        except (HubRequestError, httpx.HTTPError) as exc:
            await _card_unavailable(exc)(scope, receive, send)
            return
        await bridge.answer_rest(scope, receive, send, body, caller)

    def _caller(
        self, request: Request, caller_id: str | None, kind: ClientKind
    ) -> CallerUser | Response:
        """The caller as a2a-sdk's user; an anonymous one is a caller of its own, each
        address at most the gate's rate (past it, the 429 that answers it)."""
        from agenthub.a2a.server import CallerUser

        if caller_id is not None:
            return CallerUser(caller_id, True, kind)
        assert self.gate is not None
        address = request.client.host if request.client is not None else "unknown"
        wait = self.gate.wait_seconds(address)
        if wait > 0:
            return JSONResponse(
                {"error": f"anonymous A2A callers get {self.gate.per_second:g} requests/s"},
                status_code=429,
                headers={"Retry-After": str(max(1, round(wait + 0.5)))},
            )
        return CallerUser(f"anonymous-{uuid.uuid4().hex}@{address}", False)

    async def _card(self, request: Request) -> A2ACard:
        """The agent's A2A card, from its registry card (``agenthub.a2a.card``)."""
        from agenthub.a2a.card import a2a_card

        registered = await self.directory.card(self.agent_id)
        return a2a_card(
            registered,
            url=self.public_url or str(request.base_url),
            hub_url=self.directory.hub.base_url,
        )

    async def card(self, request: Request) -> Response:
        """The A2A Agent Card route (public, as A2A cards are): the card the hub serves for
        this agent, with the hub's signature, when it is the very card built here (its URL
        the one the agent registered); else the card built here, unsigned."""
        from agenthub.a2a.card import card_json, requested_version

        version = requested_version(request.headers, request.query_params)
        try:  # both read at the hub at once (each is kept a while)
            card, signed = await asyncio.gather(self._card(request), self._signed_card())
        except (HubRequestError, httpx.HTTPError) as exc:
            logger.warning("could not read the agent's own card at the hub: %s", exc)
            return JSONResponse({"error": "the card is not available now"}, status_code=503)
        built = card_json(card)
        if signed is not None and {k: v for k, v in signed.items() if k != "signatures"} == built:
            built = signed
        return JSONResponse(card_json(built, version=version) if version else built)

    async def _signed_card(self) -> dict[str, Any] | None:
        """The hub's signed card of this agent, read again after ``PEER_CACHE_SECONDS``."""
        cached = self._signed
        if cached is not None and time.monotonic() - cached[1] < PEER_CACHE_SECONDS:
            return cached[0]
        try:
            path = f"/v1/agents/{segment(self.agent_id)}/agent-card.json"
            response = await self.hub.request("GET", path)
            signed = response.json() if response.status_code == 200 else None
        except (HubRequestError, httpx.HTTPError, ValueError) as exc:
            logger.info("could not read the agent's signed card at the hub: %s", exc)
            signed = None
        self._signed = (signed, time.monotonic())
        return signed

    async def _push_url_ok(self, url: str) -> bool:
        """A push config's URL, checked for its form when it is set (no DNS: a config may be
        stored where names do not resolve); each push resolves and pins it
        (``PinnedPushSender``), and never goes to an address the policy refuses."""
        try:
            check_callback_form(url, self.callbacks)
        except UnsafeCallbackError as exc:
            logger.info("refused an A2A push URL %s: %s", url, exc)
            return False
        return True
