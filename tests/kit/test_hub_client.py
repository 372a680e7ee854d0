"""The kit's hub client: keys on disk, registration, two-way authentication, refresh."""

from __future__ import annotations

import os
import stat
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from agenthub import AgentKey, HubClient, HubIdentityError, HubRequestError, NotRegisteredError
from tests.support.hub import HUB_BASE, REGISTRATION_TOKEN, MakeAgent, card


def test_agent_key_file_is_0600_and_round_trips(tmp_path: Any) -> None:
    path = tmp_path / "agent" / "key.pem"
    key = AgentKey.load_or_create(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = AgentKey.load_or_create(path)
    assert again.public_jwk == key.public_jwk and again.thumbprint == key.thumbprint
    with pytest.raises(FileExistsError):
        AgentKey.generate().save(path)


async def test_authenticate_checks_hub_and_gets_token(make_agent: MakeAgent) -> None:
    kit = await make_agent("alice")
    token = await kit.authenticate()
    assert token.count(".") == 2
    assert await kit.access_token() == token  # cached while fresh


async def test_refresh_before_expiry(make_agent: MakeAgent, client: httpx.AsyncClient) -> None:
    kit = await make_agent("alice")
    eager = HubClient(
        HUB_BASE, key=kit.key, agent_id=kit.agent_id, http=client, refresh_margin_seconds=10_000
    )  # every token counts as nearly expired
    first = await eager.access_token()
    second = await eager.access_token()
    assert first != second
    assert (await eager.request("GET", "/v1/agents")).status_code == 200


async def test_kit_refuses_hub_with_another_key(
    make_agent: MakeAgent, client: httpx.AsyncClient, tmp_path: Any
) -> None:
    from app.auth.keys import load_or_create_hub_keys

    kit = await make_agent("alice")
    impostor_keys = load_or_create_hub_keys(tmp_path / "impostor.pem").jwks()
    pinned_wrong = HubClient(
        HUB_BASE, key=kit.key, agent_id=kit.agent_id, http=client, hub_jwks=impostor_keys
    )
    with pytest.raises(HubIdentityError, match="never showed"):
        await pinned_wrong.authenticate()


async def test_kit_refuses_replayed_hub_token(
    make_agent: MakeAgent, client: httpx.AsyncClient
) -> None:
    """A man in the middle replays a genuine, earlier token: the nonce gives it away."""
    kit = await make_agent("alice")
    captured = await kit.authenticate()
    jwks = (await client.get("/.well-known/jwks.json")).json()
    meta = (await client.get("/.well-known/agenthub.json")).json()

    async def token(_: Request) -> JSONResponse:
        return JSONResponse({"accessToken": captured, "tokenType": "bearer", "expiresIn": 900})

    async def metadata(_: Request) -> JSONResponse:
        return JSONResponse(meta)

    mitm = Starlette(
        routes=[
            Route("/v1/auth/token", token, methods=["POST"]),
            Route("/.well-known/agenthub.json", metadata),
        ]
    )
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=mitm)) as http:
        fooled = HubClient(
            "http://mitm.test", key=kit.key, agent_id=kit.agent_id, http=http, hub_jwks=jwks
        )
        with pytest.raises(HubIdentityError, match="nonce"):
            await fooled.authenticate()


async def test_kit_reauthenticates_once_after_401(make_agent: MakeAgent) -> None:
    kit = await make_agent("alice")
    await kit.access_token()
    await kit.rotate_key(AgentKey.generate())  # old token is void now
    assert (await kit.request("GET", "/v1/agents")).status_code == 200


async def test_kit_surfaces_problems(make_agent: MakeAgent) -> None:
    kit = await make_agent("alice")
    with pytest.raises(HubRequestError) as info:
        await kit.get_agent("1.2.156.3088.1.AGH.NOBODY")
    assert info.value.status == 404 and info.value.problem["status"] == 404


async def test_a_wrong_registration_token_is_one_line_in_the_hubs_words(
    client: httpx.AsyncClient,
) -> None:
    key = AgentKey.generate()
    kit = HubClient(HUB_BASE, key=key, http=client)
    with pytest.raises(HubRequestError) as info:
        await kit.register(card("alice", key), registration_token="not-the-token")
    assert str(info.value) == "This registration token is not accepted."
    assert (info.value.status, info.value.code) == (401, "registration-token-rejected")


async def test_unregistered_kit_cannot_authenticate(client: httpx.AsyncClient) -> None:
    kit = HubClient(HUB_BASE, key=AgentKey.generate(), http=client)
    with pytest.raises(NotRegisteredError):
        await kit.authenticate()


async def test_deregistered_kit_gets_401(client: httpx.AsyncClient) -> None:
    key = AgentKey.generate()
    kit = HubClient(HUB_BASE, key=key, http=client)
    await kit.register(card("alice", key), registration_token=REGISTRATION_TOKEN)
    await kit.deregister()
    with pytest.raises(HubRequestError) as info:
        await kit.authenticate()
    assert info.value.status == 401


async def test_a_stale_token_is_replaced_once_with_the_callers_headers_kept(
    make_agent: MakeAgent,
) -> None:
    kit = await make_agent("alice")
    await kit.access_token()
    kit._token = "not.a.token"  # as after the hub's key rotated: the next call is 401
    response = await kit.request(
        "GET", f"/v1/agents/{kit.agent_id}/agent-card.json", headers={"A2A-Version": "0.3"}
    )
    assert response.status_code in (200, 404)  # re-authenticated (no A2A binding: 404)
    assert kit._token != "not.a.token"


async def test_a_get_on_a_connection_closed_under_it_goes_again_once() -> None:
    """A keep-alive connection the server closes as the request goes: a GET is sent again
    on a new connection; a POST is not (the server may have acted on it)."""
    import asyncio

    served: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        served.append(head.split(b" ", 2)[1])
        if len(served) % 2:  # every other request: closed without an answer
            writer.close()
            return
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: application/json\r\n\r\n{}"
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        kit = HubClient(f"http://127.0.0.1:{port}", key=AgentKey.generate(), agent_id="a")
        kit._token, kit._token_expires_at = "t", 2**40  # no token request to this server
        assert (await kit.request("GET", "/v1/agents")).status_code == 200
        assert served == [b"/v1/agents", b"/v1/agents"]
        with pytest.raises(httpx.RemoteProtocolError):
            await kit.request("POST", "/v1/sessions", json={})
        assert served[-1] == b"/v1/sessions" and len(served) == 3
        await kit.aclose()
