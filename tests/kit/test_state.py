"""An agent's identity in one file: the first run registers, the next ones just work."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import stat
from pathlib import Path

import httpx
import pytest

from agenthub import Agent, AgentState, HubIdentityError, StateFileError
from tests.support import LOOPBACK
from tests.support.hub import OPERATOR_TOKEN, REGISTRATION_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent
from tests.support.live import bound_socket

CARD = {"name": "keeper", "description": "keeps its identity", "skills": []}


async def test_the_second_run_reuses_the_identity_and_updates_the_card(
    live_hub: LiveHub, tmp_path: Path
) -> None:
    path = tmp_path / "state" / "keeper.json"
    first = Agent(live_hub.url, state=path, public_url="https://127.0.0.1:9301/")
    card = await first.join(CARD, registration_token=REGISTRATION_TOKEN)
    await first.aclose()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    saved = json.loads(path.read_text())
    assert saved["agentId"] == card.id and saved["hubUrl"] == live_hub.url
    assert saved["hubJwks"]["keys"] and "PRIVATE KEY" in saved["privateKeyPem"]

    second = Agent(live_hub.url, state=path, public_url="https://127.0.0.1:9302/")
    again = await second.join({**CARD, "description": "moved to another port"})  # no token
    await second.aclose()
    assert again.id == card.id
    assert again.endpoint_url == "https://127.0.0.1:9302/"
    assert again.description == "moved to another port"


async def test_a_hub_that_forgot_the_agent_gets_it_registered_again(
    live_hub: LiveHub, tmp_path: Path
) -> None:
    path = tmp_path / "keeper.json"
    first = Agent(live_hub.url, state=path)
    old = (await first.join(CARD, registration_token=REGISTRATION_TOKEN)).id
    await first.aclose()
    async with httpx.AsyncClient(timeout=LOOPBACK) as http:
        gone = await http.delete(
            f"{live_hub.url}/v1/agents/{old}", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        )
        assert gone.status_code in (200, 204)
    second = Agent(live_hub.url, state=path)
    new = await second.join(CARD, registration_token=REGISTRATION_TOKEN)
    await second.aclose()
    assert new.id != old
    assert json.loads(path.read_text())["agentId"] == new.id
    assert AgentState.load_or_create(path).key.public_jwk == second.key.public_jwk


async def test_a_hub_with_another_key_is_refused(live_hub: LiveHub, tmp_path: Path) -> None:
    path = tmp_path / "keeper.json"
    first = Agent(live_hub.url, state=path)
    await first.join(CARD, registration_token=REGISTRATION_TOKEN)
    await first.aclose()
    state = AgentState.load_or_create(path)
    assert state.hub_jwks is not None
    state.hub_jwks = {"keys": [{**state.hub_jwks["keys"][0], "x": state.key.public_jwk["x"]}]}
    state.save()
    impostor_check = Agent(live_hub.url, state=path)
    with pytest.raises(HubIdentityError):
        await impostor_check.join(CARD)
    await impostor_check.aclose()


def test_a_file_that_is_not_a_state_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"hello": "world"}')
    with pytest.raises(StateFileError):
        AgentState.load_or_create(path)


async def test_serve_runs_the_endpoint_in_the_registering_loop(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    sock = bound_socket()
    port = sock.getsockname()[1]
    sock.close()
    partner = Agent(
        live_hub.url,
        state=tmp_path / "echo.json",
        handler=EchoHandler(),
        public_url=f"https://127.0.0.1:{port}/",
    )
    await partner.join(
        {"name": "echo", "description": "echo"}, registration_token=REGISTRATION_TOKEN
    )
    gc.unfreeze()
    serving = asyncio.create_task(partner.serve())
    while partner.server is None or not partner.server.started:
        await asyncio.sleep(0.02)
    # serving, what the process holds is never walked by a full collection again
    assert gc.get_freeze_count() > 0
    leader = await make_live_agent("leader")
    session = await leader.leader.open_session([partner.agent_id])
    result = await leader.leader.start(partner.agent_id, session_id=session.id, text="hi")
    assert result["products"][0]["dataItems"][0]["text"] == "hi"
    partner.server.should_exit = True
    await asyncio.wait_for(serving, 60)
    assert partner.http.is_closed
