"""Who called through bridge sessions: the caller a bridge names (a registered agent, or an
application the operator registered and the hub's OAuth token proved), with the name the hub
knows it by, for the views of sessions and of their tasks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.oauth import ClientKind
from agenthub.protocol.sessions import BridgeCaller
from app.agents.models import Agent
from app.oauth.models import OAuthClient
from app.sessions.models import Session


def named_caller(bridge: Mapping[str, Any] | None) -> tuple[ClientKind, str] | None:
    """The kind and id of the caller a stored bridge names (None: an anonymous caller)."""
    if not bridge or not bridge.get("callerId"):
        return None
    kind: ClientKind = "application" if bridge.get("callerKind") == "application" else "agent"
    return kind, str(bridge["callerId"])


async def bridge_callers(
    db: AsyncSession, bridges: Mapping[str, Mapping[str, Any] | None]
) -> dict[str, BridgeCaller]:
    """The caller of each bridge session in ``bridges`` (session id: stored bridge) that
    names one, with its name: one query for agents, one for applications."""
    named = {sid: c for sid, b in bridges.items() if (c := named_caller(b)) is not None}
    names: dict[tuple[ClientKind, str], str] = {}
    agents = {i for k, i in named.values() if k == "agent"}
    applications = {i for k, i in named.values() if k == "application"}
    if agents:
        rows = await db.exec(select(Agent.id, Agent.name).where(col(Agent.id).in_(agents)))
        names.update({("agent", i): n for i, n in rows.all()})
    if applications:
        rows = await db.exec(
            select(OAuthClient.id, OAuthClient.name).where(col(OAuthClient.id).in_(applications))
        )
        names.update({("application", i): n for i, n in rows.all()})
    return {
        sid: BridgeCaller(kind=kind, id=caller_id, name=names.get((kind, caller_id)))
        for sid, (kind, caller_id) in named.items()
    }


async def session_callers(db: AsyncSession, session_ids: Iterable[str]) -> dict[str, BridgeCaller]:
    """The bridge callers of these sessions (those that are bridge sessions naming one)."""
    ids = set(session_ids)
    if not ids:
        return {}
    rows = await db.exec(select(Session.id, Session.bridge).where(col(Session.id).in_(ids)))
    return await bridge_callers(db, dict(rows.all()))
