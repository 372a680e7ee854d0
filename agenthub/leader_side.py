"""What a leader's calls need of their leader (``agenthub.leader.Leader`` is one): its
identity, clients, TLS and peers, and the recording every call makes before it is sent. The
AIP calls (``agenthub.aip_calls``) and the A2A calls (``agenthub.a2a.calls``) see the leader
through this, and import nothing of it."""

from __future__ import annotations

from typing import Protocol

import httpx

from agenthub.directory import PeerDirectory
from agenthub.hub import HubClient
from agenthub.protocol.messages import TaskCommand
from agenthub.recorder import HubRecorder
from agenthub.tls import AgentTls


class LeaderSide(Protocol):
    hub: HubClient
    directory: PeerDirectory
    recorder: HubRecorder | None
    tls: AgentTls | None
    http: httpx.AsyncClient
    endpoints: dict[str, str]
    """Partners' endpoints given up front, in place of their registry cards'."""
    verify_answers: bool
    plain_http: bool
    require_signed_cards: bool
    """Call an A2A agent only when its card carries the hub's signature."""

    @property
    def agent_id(self) -> str: ...

    async def record_command(self, command: TaskCommand, record: bool = True) -> None: ...

    def record_failed_start(
        self, partner_id: str, command: TaskCommand, error: BaseException, record: bool = True
    ) -> None: ...
