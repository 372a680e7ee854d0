"""The three round trips the p2p benchmark times, each one awaitable call that checks its echo.

- ``kit_rpc``: ``Leader.start`` — the command recorded at the hub, a fresh call token, the
  partner's checks and answer signature, the answer's signature checked against the partner's
  registered key. One call = one new task the partner accepts, works and offers back.
- ``kit_rpc_mtls``: the same, to a partner served over HTTPS with mutual TLS (certificates
  from the hub's CA; the connection is reused, as the kit does).
- ``bare_httpx``: an httpx POST of a body of the same size to a bare Starlette echo.
- ``a2a_sdk``: a2a-sdk's own client sending ``SendMessage`` (message/send) to its echo agent.
- ``kit_a2a``: the same a2a-sdk client sending ``SendMessage`` to the kit partner's A2A side,
  with a call token (the leader's, ``CallTokenAuth``): a new A2A context and task each call,
  the partner's task accepted, worked, completed by the bridge, and all of it recorded at the
  hub in a bridged session of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.helpers import get_artifact_text, get_message_text, new_text_message
from a2a.types import Role, SendMessageRequest, TaskState
from a2a.utils.errors import UnsupportedOperationError

from agenthub import Agent, AgentKey
from agenthub.protocol.aic import aic_host
from agenthub.signing import CallTokenAuth, mint_call_token
from bench import harness
from bench.p2p.servers import Servers

TEXT = "ping from the p2p benchmark"
TIMEOUT_SECONDS = 30.0
TASKS_PAGE = 500

Call = Callable[[], Awaitable[None]]


class EchoMismatch(RuntimeError):
    """A round trip came back without the text it carried."""


@dataclass
class Kit:
    agent: Agent
    partner_id: str
    session_id: str
    calls: int = 0

    async def call(self) -> None:
        result = await self.agent.leader.start(
            self.partner_id, session_id=self.session_id, text=TEXT
        )
        self.calls += 1
        if result["products"][0]["dataItems"][0]["text"] != TEXT:
            raise EchoMismatch(f"the kit partner answered {result!r}")

    def body(self) -> dict[str, Any]:
        """A JSON-RPC body shaped and sized like the kit's own ``rpc`` call."""
        command = self.agent.leader.command(
            "start", session_id=self.session_id, partner_id=self.partner_id, text=TEXT
        )
        return {
            "jsonrpc": "2.0",
            "id": "1",
            "method": "rpc",
            "params": {"command": command.to_wire()},
        }


@dataclass
class Bare:
    http: httpx.AsyncClient
    url: str
    body: dict[str, Any]

    async def call(self) -> None:
        response = await self.http.post(self.url, json=self.body)
        response.raise_for_status()
        if response.json() != self.body:
            raise EchoMismatch(f"the bare endpoint answered {response.text[:200]}")


@dataclass
class A2a:
    client: Client

    async def call(self) -> None:
        request = SendMessageRequest(message=new_text_message(TEXT, role=Role.ROLE_USER))
        texts = [get_message_text(r.message) async for r in self.client.send_message(request)]
        if texts != [TEXT]:
            raise EchoMismatch(f"the a2a-sdk agent answered {texts!r}")


BEHIND_PAUSE_SECONDS = 0.05
"""How long a caller pauses when the partner says its record at the hub is behind."""


@dataclass
class KitA2a:
    client: Client
    calls: int = 0
    behind: int = 0  # new tasks the partner refused while its record at the hub caught up

    async def call(self) -> None:
        request = SendMessageRequest(message=new_text_message(TEXT, role=Role.ROLE_USER))
        while True:  # as the refusal says: send it again shortly
            try:
                answers = [r async for r in self.client.send_message(request)]
                break
            except UnsupportedOperationError:
                self.behind += 1
                await asyncio.sleep(BEHIND_PAUSE_SECONDS)
        tasks = [r.task for r in answers if r.HasField("task")]
        self.calls += 1
        done = len(tasks) == 1 and tasks[0].status.state == TaskState.TASK_STATE_COMPLETED
        if not done or [get_artifact_text(a) for a in tasks[0].artifacts] != [TEXT]:
            raise EchoMismatch(f"the kit partner's A2A side answered {tasks!r}")


@dataclass
class Targets:
    kit: Kit
    kit_mtls: Kit
    bare: Bare
    a2a: A2a
    kit_a2a: KitA2a
    calls: dict[str, Call] = field(init=False)

    def __post_init__(self) -> None:
        self.calls = {
            "kit_rpc": self.kit.call,
            "kit_rpc_mtls": self.kit_mtls.call,
            "bare_httpx": self.bare.call,
            "a2a_sdk": self.a2a.call,
            "kit_a2a": self.kit_a2a.call,
        }


async def _leader(servers: Servers, stack: AsyncExitStack, *, tls: bool = False) -> Kit:
    """A leader calling the plain partner, or (``tls``) the one served over mutual TLS."""
    agent = Agent(servers.hub_url, key=AgentKey.generate(), plain_http=not tls)
    stack.push_async_callback(agent.aclose)
    await agent.register(
        {"name": "p2p-leader", "description": "the p2p benchmark's driver"},
        registration_token=harness.OPERATOR_TOKEN,
    )
    partner_id = servers.tls_partner_id if tls else servers.partner_id
    session = await agent.leader.open_session([partner_id], title="p2p benchmark")
    return Kit(agent, partner_id, session.id)


async def open_targets(servers: Servers, stack: AsyncExitStack) -> Targets:
    """Clients for the three targets, each reused for every call; closed by ``stack``."""
    kit = await _leader(servers, stack)
    kit_mtls = await _leader(servers, stack, tls=True)
    body = kit.body()
    http = await stack.enter_async_context(httpx.AsyncClient(timeout=TIMEOUT_SECONDS))
    factory = ClientFactory(ClientConfig(streaming=False))
    client = await factory.create_from_url(servers.a2a_url)
    stack.push_async_callback(client.close)
    auth = CallTokenAuth(kit.agent.key, caller_id=kit.agent.agent_id, callee_id=kit.partner_id)
    a2a_http = await stack.enter_async_context(
        httpx.AsyncClient(timeout=TIMEOUT_SECONDS, auth=auth)
    )
    kit_factory = ClientFactory(ClientConfig(httpx_client=a2a_http, streaming=False))
    kit_client = await kit_factory.create_from_url(servers.partner_url)
    stack.push_async_callback(kit_client.close)
    return Targets(
        kit, kit_mtls, Bare(http, servers.bare_url, body), A2a(client), KitA2a(kit_client)
    )


async def refused_calls(kit: Kit, url: str) -> dict[str, int]:
    """Statuses the partner gives a call without a token and one with a forged token."""
    body = orjson.dumps(kit.body())
    forged = mint_call_token(
        AgentKey.generate(),
        caller_id=kit.agent.agent_id,
        callee_id=kit.partner_id,
        method="POST",
        url=url,
        body=body,
    )
    headers = {"Content-Type": "application/json"}
    http = kit.agent.http
    bare = await http.post(url, content=body, headers=headers)
    faked = await http.post(
        url, content=body, headers={**headers, "Authorization": f"Bearer {forged.token}"}
    )
    return {"without_token": bare.status_code, "forged_token": faked.status_code}


async def handshake_ms(kit: Kit, url: str, count: int = 50) -> dict[str, float]:
    """What a new connection to the mutual-TLS partner costs: ``count`` TCP connects with
    the full TLS handshake (both certificates, the partner's name checked), in ms."""
    parts = httpx.URL(url)
    await kit.agent.tls.ensure()
    took: list[float] = []
    for _ in range(count):
        started = time.perf_counter()
        _reader, writer = await asyncio.open_connection(
            parts.host,
            parts.port,
            ssl=kit.agent.tls.client,
            server_hostname=aic_host(kit.partner_id),
        )
        took.append((time.perf_counter() - started) * 1000)
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    took.sort()
    return {"p50_ms": took[len(took) // 2], "p90_ms": took[int(len(took) * 0.9)]}


async def tasks_at_hub(kit: Kit) -> int:
    """Tasks of the session the hub holds as awaiting completion: both sides recorded."""
    count, cursor = 0, None
    while True:
        params: dict[str, Any] = {
            "sessionId": kit.session_id,
            "state": "awaiting-completion",
            "limit": TASKS_PAGE,
        }
        if cursor:
            params["cursor"] = cursor
        response = await kit.agent.hub.request("GET", "/v1/tasks", params=params)
        response.raise_for_status()
        page = response.json()
        count += len(page["items"])
        cursor = page.get("nextCursor")
        if not cursor:
            return count
