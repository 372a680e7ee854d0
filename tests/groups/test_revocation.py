"""A stream lasts as long as the token it was opened with: it ends when the token expires,
and when its agent is deregistered or re-keyed (tests/scale covers other replicas)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from agenthub import AgentKey, HubClient
from agenthub.protocol.jwk import jwk_thumbprint
from app.auth.tokens import issue_access_token
from tests.support import LOOPBACK
from tests.support.groups import MakeMember, team
from tests.support.hub import ISSUER, OPERATOR_TOKEN
from tests.support.live import LiveServer, streams_open
from tests.support.parts import parts

END_SECONDS = 5.0  # every case below ends well within it (keep-alive is 0.5 s here)


async def _read_to_end(url: str, token: str) -> bytes:
    """Open the stream and read it to its end; what it carried."""
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx.AsyncClient(timeout=END_SECONDS * 2) as http,
        http.stream("GET", url, headers=headers) as response,
    ):
        assert response.status_code == 200
        async with asyncio.timeout(END_SECONDS * 2):
            return await response.aread()  # a cut-off body would raise: a clean end


async def _held_until_end(url: str, token: str) -> float:
    """Open the stream and read it to its end; how long it lasted."""
    started = time.monotonic()
    await _read_to_end(url, token)
    return time.monotonic() - started


async def _stream_then(
    live: LiveServer, member: HubClient, path: str, action: Any
) -> tuple[float, httpx.Response]:
    url = f"{live.url}{path}"
    token = await member.access_token()
    reading = asyncio.create_task(_held_until_end(url, token))
    await streams_open(live, 1)
    await action()
    lasted = await reading
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        again = await http.get(url, headers={"Authorization": f"Bearer {token}"})
    return lasted, again


async def test_deregistration_ends_the_agents_open_streams(
    make_member: MakeMember, live: LiveServer
) -> None:
    member = await make_member("member")

    async def deregister() -> None:
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            gone = await http.delete(
                f"{live.url}/v1/agents/{member.agent_id}",
                headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
            )
            assert gone.status_code == 204

    # the inbox: no membership of it ends, only the agent
    lasted, again = await _stream_then(live, member, "/v1/agents/me/events", deregister)
    assert lasted < END_SECONDS
    assert again.status_code == 401


async def test_a_key_rotation_ends_the_streams_opened_with_the_old_key(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, member = await make_member("leader"), await make_member("member")
    group = await team(leader, member)

    async def rotate() -> None:
        await member.rotate_key(AgentKey.generate())

    lasted, again = await _stream_then(live, member, f"/v1/groups/{group['id']}/events", rotate)
    assert lasted < END_SECONDS
    assert again.status_code == 401  # the old token: the new one still streams
    assert (await member.request("GET", f"/v1/groups/{group['id']}")).status_code == 200


async def test_a_stream_ends_when_its_token_expires(
    make_member: MakeMember, live: LiveServer
) -> None:
    leader, member = await make_member("leader"), await make_member("member")
    group = await team(leader, member)
    app: Any = live.app
    card = await member.get_agent(member.agent_id or "")
    short = issue_access_token(
        parts(app).keys,
        issuer=ISSUER,
        agent_id=member.agent_id or "",
        key_thumbprint=jwk_thumbprint(card.public_jwk),
        nonce="n",
        lifetime_seconds=5,  # 2 s was once spent before the stream opened on a loaded CI
    )
    lasted = await _held_until_end(f"{live.url}/v1/groups/{group['id']}/events", short)
    assert 1.0 < lasted < 5 + END_SECONDS
    assert parts(app).presence.held() == 0


async def test_a_deregistered_members_group_stream_ends_with_nothing_written_to_it(
    make_member: MakeMember, live: LiveServer
) -> None:
    """Five times over: the member's own membership-ended event (the deregistration writes
    it for the other members) never reaches its stream, which ends before the 204."""
    for round_ in range(5):
        leader, member = await make_member(f"leader{round_}"), await make_member(f"m{round_}")
        group = await team(leader, member)
        last_seq = (await leader.groups.get(group["id"])).last_seq  # from now on
        url = f"{live.url}/v1/groups/{group['id']}/events?after={last_seq}"
        reading = asyncio.create_task(_read_to_end(url, await member.access_token()))
        await streams_open(live, 1)
        async with httpx.AsyncClient(timeout=LOOPBACK) as http:
            gone = await http.delete(
                f"{live.url}/v1/agents/{member.agent_id}",
                headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
            )
        assert gone.status_code == 204
        assert parts(live.app).metrics.open_stream_count() == 0  # ended before the 204
        frames = await asyncio.wait_for(reading, END_SECONDS)
        assert b"data:" not in frames, frames[:500]
