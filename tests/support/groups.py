"""Building blocks for group tests: a session with a team, posting, reading back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, select

from agenthub import HubClient
from tests.support.messages import chat
from tests.support.parts import parts

STREAM_SETTINGS = {
    "keepalive_seconds": 0.5,
    "stream_queue_frames": 32,
    "stream_send_timeout_seconds": 60.0,
}

MakeMember = Callable[[str], Awaitable[HubClient]]


async def open_session(leader: HubClient, *others: HubClient) -> str:
    body = {"receivers": [{"agentId": a.agent_id, "mode": "group"} for a in others]}
    response = await leader.request("POST", "/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def create_group(leader: HubClient, session_id: str, **extra: Any) -> dict[str, Any]:
    body = {"sessionId": session_id, "name": "team", **extra}
    response = await leader.request("POST", "/v1/groups", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def team(leader: HubClient, *members: HubClient, **extra: Any) -> dict[str, Any]:
    """A session and an invite group in which every one of ``members`` has accepted."""
    session_id = await open_session(leader, *members)
    group = await create_group(leader, session_id, inviteIds=[m.agent_id for m in members], **extra)
    for member in members:
        response = await member.request(
            "POST", f"/v1/groups/{group['id']}/invitations/{member.agent_id}/accept"
        )
        assert response.status_code == 200, response.text
    return group


async def post(member: HubClient, group_id: str, words: str, **extra: Any) -> dict[str, Any]:
    role = extra.pop("role", "partner")
    body = chat(str(member.agent_id), words, role=role, **extra)
    response = await member.request("POST", f"/v1/groups/{group_id}/messages", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def count(hub: Any, model: Any, *where: Any) -> int:
    async with parts(hub).session_factory() as db:
        stmt = select(func.count()).select_from(model)
        for clause in where:
            stmt = stmt.where(clause)
        return int(await db.scalar(stmt) or 0)
