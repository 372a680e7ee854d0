"""acps-sdk 2.1.0 peers as its own docs and sources show them: its ``AipRpcClient`` with its
own ``MTLSConfig`` driving a kit partner, and an ``add_aip_rpc_router`` partner served over
mutual TLS with acps-sdk's server context, for a kit leader to call."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from acps_sdk.aip.aip_base_model import TaskCommand
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.mtls_config import MTLSConfig
from fastapi import FastAPI

from agenthub import Agent, AgentKey, HubClient
from agenthub.tls import AgentTls
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import LiveHub
from tests.support.live import LiveServer, bound_socket


async def acps_client(leader: Agent, partner: Agent, folder: Path) -> AipRpcClient:
    """acps-sdk's client for ``leader`` (its certificate from our hub, written where
    ``MTLSConfig`` looks), pointed at ``partner``'s endpoint."""
    await leader.tls.ensure()
    folder.mkdir(parents=True, exist_ok=True)
    leader.tls.write_files(folder)  # {AIC}.crt, {AIC}.key, ca.crt
    mtls = MTLSConfig(str(folder), leader.agent_id)
    return AipRpcClient(
        partner.public_url or "", leader.agent_id, ssl_context=mtls.create_client_ssl_context()
    )


def acps_command(
    leader_id: str,
    command: str,
    *,
    task_id: str,
    session_id: str,
    text: str | None = None,
    params: dict[str, Any] | None = None,
) -> TaskCommand:
    """A command built from acps-sdk's own model, as its client builds one."""
    return TaskCommand.model_validate(
        {
            "id": f"cmd-{uuid.uuid4()}",
            "sentAt": datetime.now(UTC).isoformat(),
            "senderRole": "leader",
            "senderId": leader_id,
            "sessionId": session_id,
            "command": command,
            "taskId": task_id,
            "commandParams": params,
            "dataItems": [{"type": "text", "text": text}] if text else None,
        }
    )


def rpc_body(method: str, params: Any, request_id: str | None = "1") -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if request_id is not None:
        body["id"] = request_id
    return body


@contextlib.asynccontextmanager
async def acps_partner(
    live_hub: LiveHub, folder: Path, app: Any, path: str = "/aip"
) -> AsyncIterator[tuple[str, str]]:
    """Register an agent for an acps-sdk partner app (``app(aic) -> FastAPI``) and serve
    it over mutual TLS with acps-sdk's own server context: its AIC and URL."""
    key = AgentKey.generate()
    sock = bound_socket()
    url = f"https://127.0.0.1:{sock.getsockname()[1]}{path}"
    async with HubClient(live_hub.url, key=key) as hub:
        card = await hub.register(
            {"name": "acps-partner", "endpointUrl": url}, registration_token=REGISTRATION_TOKEN
        )
        certificate = AgentTls(hub)
        await certificate.ensure()
        folder.mkdir(parents=True, exist_ok=True)
        certificate.write_files(folder)
    context = MTLSConfig(str(folder), card.id).create_server_ssl_context()
    served: FastAPI = app(card.id)
    server = await LiveServer(
        served, sock=sock, lifespan="off", ssl_context_factory=lambda _config, _default: context
    ).start()
    try:
        yield card.id, url
    finally:
        await server.stop()
