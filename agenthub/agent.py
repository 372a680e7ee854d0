"""One object for one agent: its hub client, its endpoint (partner and leader roles), its
record keeping. The pieces stay usable on their own.

Kept whole: ``Agent`` is the module, and says why it is one class.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import socket
import time
from collections.abc import AsyncIterator
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

import httpx
import uvicorn
from starlette.types import Receive, Scope, Send

import agenthub.tracing as tracing
from agenthub.a2a import A2AOptions
from agenthub.a2a.serving import A2AServing
from agenthub.callbacks import CallbackPolicy
from agenthub.directory import PeerDirectory
from agenthub.endpoint import AgentEndpoint
from agenthub.errors import HubRequestError, NotRegisteredError
from agenthub.http_guard import ServerLimits
from agenthub.hub import HubClient
from agenthub.inbox import NotificationInbox
from agenthub.keys import AgentKey
from agenthub.leader import Leader
from agenthub.notify import NotificationSender
from agenthub.partner import TaskHandler
from agenthub.protocol.agents import AgentCard, AgentUpdate
from agenthub.recorder import HubRecorder
from agenthub.runtime import PartnerRuntime
from agenthub.state import AgentState
from agenthub.tls import AgentTls
from agenthub.tls_server import TlsHttpProtocol
from agenthub.transport import CALL_TIMEOUT_SECONDS, http_client

logger = logging.getLogger(__name__)
AGENT_SERVICE_NAME = "agenthub-agent"
"""The service name of an agent's traces, unless ``OTEL_SERVICE_NAME`` names it."""

GRACEFUL_SHUTDOWN_SECONDS = 5
OLD_CLIENT_SECONDS = 3600.0
"""After a renewal, the HTTP client of the old certificate serves what runs on it this long
(a partner's stream lasts an hour at most), then closes."""
PRESENCE_SECONDS = 30.0  # the hub's online window is 60 s
# what ``join`` brings up to date on a saved agent (the registry's PATCH fields, but the key)
UPDATABLE_CARD_FIELDS = (
    "name",
    "description",
    "version",
    "provider",
    "skills",
    "endpointUrl",
    "protocols",
)


class Agent:
    """An agent taking part through the hub.

    ``public_url`` is where others reach its endpoint (``Agent.asgi``, mounted anywhere or run
    alone with ``serve``); it is registered as the agent's ``endpointUrl``. Pushed
    notifications arrive at ``{public_url}/notifications``. It is ``https``: ``serve`` then
    speaks HTTPS with mutual TLS, with a certificate from the hub's CA (``agenthub.tls``), and
    the leader calls partners the same way. Plain ``http`` takes ``plain_http=True``
    (development, or behind a proxy that ends TLS). ``hub_ca`` pins the CA of an https hub.

    ``state`` (a path or an ``AgentState``) keeps the agent's key, id and the hub's pinned
    keys in one file: with it, ``join`` registers on the first run and reuses the identity
    on the next ones. Without it, pass ``key`` (and ``agent_id``, ``hub_jwks``) yourself.

    ``outbox`` (a path) keeps the records not yet at the hub in a small SQLite file: an agent
    killed or restarted loses none, and sends them again once it joins (``HubRecorder``).

    ``a2a`` (``True`` or ``A2AOptions``, with the ``a2a`` extra): the partner answers A2A
    callers too, at the same URL, and registers both protocols (``agenthub.a2a``).

    ``limits`` (``agenthub.http_guard.ServerLimits``): what one connection to the endpoint
    may cost before anyone is authenticated (header size and count, header and body
    deadlines) and how many it serves at once; the hub's defaults unless given.

    Kept whole: it is the one object a developer makes, and registering, joining, serving
    and closing share its state (key, TLS, clients, state file) and their order of steps; the
    parts it holds live apart (``Leader``, ``AgentEndpoint``, ``AgentTls``, ``HubRecorder``).
    """

    def __init__(
        self,
        hub_url: str,
        *,
        key: AgentKey | None = None,
        state: AgentState | str | os.PathLike[str] | None = None,
        agent_id: str | None = None,
        handler: TaskHandler | None = None,
        public_url: str | None = None,
        hub_jwks: dict[str, Any] | None = None,
        verify_answers: bool = True,
        callbacks: CallbackPolicy | None = None,
        hub_http: httpx.AsyncClient | None = None,
        outbox: str | os.PathLike[str] | None = None,
        plain_http: bool = False,
        hub_ca: str | os.PathLike[str] | None = None,
        a2a: A2AOptions | bool = False,
        limits: ServerLimits | None = None,
    ) -> None:
        if urlsplit(public_url or "").scheme == "http" and not plain_http:
            raise ValueError(
                f"public_url {public_url} is plain http: give an https one (mutual TLS with "
                "the hub's certificates), or pass plain_http=True (development, or behind a "
                "proxy that ends TLS)"
            )
        if state is not None and not isinstance(state, AgentState):
            state = AgentState.load_or_create(state)
        self.state: AgentState | None = state
        if state is not None:
            if key is not None or agent_id is not None:
                raise ValueError("pass either state or key/agent_id, not both")
            key = state.key
            if state.hub_url == hub_url.rstrip("/"):
                agent_id, hub_jwks = state.agent_id, hub_jwks or state.hub_jwks
        if key is None:
            raise ValueError("an agent needs a key: pass key= or state=")
        # when OTEL_* asks for traces: on from here, whether this process serves or only leads
        tracing.configure(AGENT_SERVICE_NAME)
        self.key = key
        self.started_at = time.time()  # call tokens minted before it are refused (JtiCache)
        self.handler = handler
        self.public_url = public_url
        self.a2a = A2AOptions() if a2a is True else a2a or None
        self.limits = limits or ServerLimits()
        self.callbacks = callbacks or CallbackPolicy()
        self.hub = HubClient(
            hub_url, key=key, agent_id=agent_id, hub_jwks=hub_jwks, http=hub_http, hub_ca=hub_ca
        )
        self.tls = AgentTls(self.hub)
        self.tls.on_renewal(self._let_old_connections_go)
        self.http = http_client(timeout=CALL_TIMEOUT_SECONDS, verify=self.tls.client)
        self._old_http: list[httpx.AsyncClient] = []
        self._retiring: set[asyncio.Task[None]] = set()
        self.directory = PeerDirectory(self.hub)
        self.recorder = HubRecorder(self.hub, outbox=outbox)
        self.inbox = NotificationInbox()
        self.leader = Leader(
            self.hub,
            directory=self.directory,
            recorder=self.recorder,
            inbox=self.inbox,
            http=self.http,
            verify_answers=verify_answers,
            tls=self.tls,
            plain_http=plain_http,
        )
        self._endpoint: AgentEndpoint | None = None
        self._notifier: NotificationSender | None = None
        self.server: Any = None  # the uvicorn server while ``serve`` runs

    @classmethod
    def from_key_file(cls, hub_url: str, key_file: str | os.PathLike[str], **kwargs: Any) -> Agent:
        return cls(hub_url, key=AgentKey.load_or_create(key_file), **kwargs)

    @property
    def agent_id(self) -> str:
        if self.hub.agent_id is None:
            raise NotRegisteredError("register the agent (or pass agent_id) first")
        return self.hub.agent_id

    @property
    def notifications_url(self) -> str:
        if self.public_url is None:
            raise NotRegisteredError("the agent has no public_url to be notified at")
        return f"{self.public_url.rstrip('/')}/notifications"

    async def register(
        self, card: dict[str, Any], *, registration_token: str | None = None
    ) -> AgentCard:
        body = self._with_endpoint(card)
        registered = await self.hub.register(body, registration_token=registration_token)
        self._save_state()
        self.recorder.resume()
        return registered

    async def join(
        self, card: dict[str, Any], *, registration_token: str | None = None
    ) -> AgentCard:
        """Take part with the identity in ``state``: authenticate as the saved agent and
        bring its card up to date (description, skills, endpoint), or register when there
        is none yet, or when the hub no longer knows it (a new store, or deregistered).

        A hub whose signing key is not the pinned one is refused (``HubIdentityError``);
        if you trust its new key, delete the state file's ``hubJwks``, or the file.
        """
        if self.hub.agent_id is not None:
            try:
                await self.hub.authenticate()
            except HubRequestError as exc:
                if exc.code != "unknown-agent":
                    raise
                logger.warning(
                    "the hub no longer knows agent %s; registering it again", self.hub.agent_id
                )
                self.hub.agent_id = None
                if self.state is not None:
                    self.state.forget_registration()
            else:
                self._save_state()
                self.recorder.resume()  # records an earlier run left in the outbox
                fields = {k: v for k, v in card.items() if k in UPDATABLE_CARD_FIELDS}
                update = self._with_endpoint(fields)
                return await self.hub.update_self(AgentUpdate.model_validate(update))
        return await self.register(card, registration_token=registration_token)

    def _with_endpoint(self, card: dict[str, Any]) -> dict[str, Any]:
        """The card with this agent's endpoint as ``endpointUrl``, and, serving A2A, its
        protocols (AIP, A2A's JSON-RPC and its HTTP+JSON binding, all at the same URL),
        unless the card says otherwise."""
        body = dict(card)
        if self.public_url and "endpointUrl" not in body:
            body["endpointUrl"] = self.public_url
        if self.a2a is not None and self.public_url and "protocols" not in body:
            body["protocols"] = [
                {"protocol": "aip", "url": self.public_url},
                {"protocol": "a2a", "url": self.public_url},
                {"protocol": "a2a", "url": self.public_url, "transport": "HTTP+JSON"},
            ]
        return body

    def _save_state(self) -> None:
        if self.state is None:
            return
        self.state.hub_url = self.hub.base_url
        self.state.agent_id = self.hub.agent_id
        self.state.hub_jwks = self.hub.pinned_jwks
        self.state.save()

    async def serve(
        self, *, host: str = "127.0.0.1", port: int | None = None, log_level: str = "warning"
    ) -> None:
        """Serve the agent's endpoint in this event loop until Ctrl-C or SIGTERM (or
        ``agent.server.should_exit = True``), then close the agent's clients. ``port``
        defaults to ``public_url``'s. Serving in the loop that registered the agent keeps its
        HTTP clients on one loop (``uvicorn.run(agent)`` would start another)."""
        if port is None:
            port = urlsplit(self.public_url or "").port
            if port is None:
                raise ValueError("pass port=, or a public_url with a port")
        options = await self.server_options()
        config = uvicorn.Config(
            self,
            host=host,
            port=port,
            log_level=log_level,
            lifespan="off",
            # a TLS connection closes once the peer answers its close_notify; an idle
            # keep-alive client answers it only when it next reads
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            **options,
        )
        self.server = _EndpointServer(config)
        chores = [asyncio.create_task(self._stay_online())]
        if self.serves_https:
            chores.append(asyncio.create_task(self.tls.keep_fresh()))
        try:
            await self.server.serve()
        finally:
            for chore in chores:
                chore.cancel()
            for chore in chores:
                with contextlib.suppress(asyncio.CancelledError):
                    await chore
            await self.aclose()
            tracing.shutdown()

    @property
    def serves_https(self) -> bool:
        return urlsplit(self.public_url or "").scheme == "https"

    async def server_options(self) -> dict[str, Any]:
        """What ``uvicorn.Config`` needs to serve this agent: the protocol with the agent's
        ``limits`` (``ServerLimits``: header size, header and body deadlines, connections);
        for an ``https`` public_url, its certificate from the hub (asked for now if need be),
        client certificates required and checked by the hub's CA, and a protocol that shows
        them to the endpoint."""
        if not self.serves_https:
            return self.limits.server_options()
        await self.tls.ensure()
        context = self.tls.server
        return {
            **self.limits.server_options(TlsHttpProtocol),
            "ssl_context_factory": lambda _config, _default: context,
        }

    async def _stay_online(self) -> None:
        """While it serves, the agent is ``online`` in discovery: the hub counts an agent
        online for 60 s after its last call, so it calls (reads its own card) every 30 s."""
        while True:
            try:
                await self.hub.get_agent(self.agent_id)
            except Exception as exc:  # the hub is away: try again at the next beat
                logger.debug("presence call failed: %s", exc)
            await asyncio.sleep(PRESENCE_SECONDS)

    @contextlib.asynccontextmanager
    async def serving(self, **options: Any) -> AsyncIterator[Agent]:
        """``serve`` in the background for the ``async with`` block (a leader that receives
        notifications, say); the agent is closed at the end of the block."""
        task = asyncio.create_task(self.serve(**options))
        while self.server is None or not self.server.started:
            if task.done():
                task.result()
                raise RuntimeError("the agent's endpoint stopped before it started")
            await asyncio.sleep(0.01)
        try:
            yield self
        finally:
            self.server.should_exit = True
            await task

    @property
    def endpoint(self) -> AgentEndpoint:
        if self._endpoint is None:
            runtime = None
            if self.handler is not None:
                self._notifier = NotificationSender(
                    key=self.key, agent_id=self.agent_id, policy=self.callbacks, tls=self.tls
                )
                runtime = PartnerRuntime(
                    agent_id=self.agent_id,
                    handler=self.handler,
                    recorder=self.recorder,
                    notifier=self._notifier,
                )
            a2a = None
            if self.a2a is not None and runtime is not None:
                a2a = A2AServing(
                    agent_id=self.agent_id,
                    options=self.a2a,
                    runtime=runtime,
                    recorder=self.recorder,
                    hub=self.hub,
                    directory=self.directory,
                    callbacks=self.callbacks,
                    public_url=self.public_url,
                )
            self._endpoint = AgentEndpoint(
                agent_id=self.agent_id,
                key=self.key,
                directory=self.directory,
                runtime=runtime,
                inbox=self.inbox,
                public_url=self.public_url,
                callbacks=self.callbacks,
                started_at=self.started_at,
                tls=self.tls,
                a2a=a2a,
                a2a_pushed=self.leader.a2a_pushed,
            )
        return self._endpoint

    @property
    def notifier(self) -> NotificationSender | None:
        return self._notifier

    @property
    def asgi(self) -> Agent:
        """The endpoint as an ASGI app (the agent itself): mount it, or run it with uvicorn."""
        return self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry; the endpoint is built on first use, once the agent has its id."""
        if scope["type"] == "lifespan":
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
                message = await receive()
            if message["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
            return
        await self.endpoint.app(scope, receive, send)

    def _let_old_connections_go(self) -> None:
        """After a renewal: new calls, pushes and callers see the new certificate. The HTTP
        client of the old one serves the calls and streams on it for ``OLD_CLIENT_SECONDS``
        (or until ``aclose``); ``agent.http`` is the new one."""
        old, self.http = (
            self.http,
            http_client(timeout=CALL_TIMEOUT_SECONDS, verify=self.tls.client),
        )
        self.leader.http = self.http
        self._old_http.append(old)
        old_a2a = self.leader.a2a_clients_renewed()

        async def retire() -> None:
            await asyncio.sleep(OLD_CLIENT_SECONDS)
            self._old_http.remove(old)
            await old.aclose()
            for close in old_a2a:
                await close()

        task = asyncio.get_running_loop().create_task(retire())
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)
        if self._notifier is not None:
            self._notifier.drop_pools()
        state = getattr(self.server, "server_state", None)  # uvicorn's, while ``serve`` runs
        for connection in list(getattr(state, "connections", ())):
            connection.shutdown()  # after the response in progress, as at uvicorn's exit

    async def aclose(self) -> None:
        if self._endpoint is not None and self._endpoint.a2a is not None:
            await self._endpoint.a2a.aclose()  # a2a-sdk's handler, the push sender
        if self._endpoint is not None and self._endpoint.runtime is not None:
            await self._endpoint.runtime.aclose()  # its tasks' handlers and timeout timers
        if self._endpoint is not None:
            await self._endpoint.open_streams.aclose()  # their callers' rechecks
        await self.leader.aclose()  # its A2A clients (its HTTP client is the agent's)
        for task in list(self._retiring):
            task.cancel()
        for old in self._old_http:
            await old.aclose()
        self._old_http.clear()
        await self.recorder.aclose()
        if self._notifier is not None:
            await self._notifier.aclose()
        await self.http.aclose()
        await self.hub.aclose()
        if tracing.on():
            await asyncio.to_thread(tracing.flush)  # its last spans, before the process ends


class _EndpointServer(uvicorn.Server):
    """uvicorn's server, but Ctrl-C or SIGTERM ends ``serve`` normally: uvicorn would raise
    the signal again once it has shut down, and a script would end with a traceback.

    Once it serves, what the process holds (its modules, the kit, the agent) is frozen
    (``gc.freeze``), as the hub's ``agenthub serve`` does: a full collection walks only what
    was made since. A busy partner's full collections were pauses of 50-110 ms, every call
    in flight waiting, about half of it the process as it started (BENCHMARKS.md)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            gc.collect()
            gc.freeze()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        captured = getattr(self, "_captured_signals", None)
        if isinstance(captured, list):
            captured.clear()
