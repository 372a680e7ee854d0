"""The systems under test for a run of the A2A TCK (a2aproject/a2a-tck, from its own checkout):
``python -m tests.support.tck_sut`` serves on loopback, until Ctrl-C,

- a hub (SQLite in a temporary directory);
- a kit partner with ``a2a=True`` (``EchoHandler``), registered there, and a caller agent, whose
  bearer token from the hub's OAuth token endpoint (client credentials, ``private_key_jwt``,
  ``resource`` = the partner) the TCK sends as a static header;
- a2a-sdk's reference server (``tests/support/a2a_peer.py``, v1.0 interfaces only, as the
  conformance tests run it),

and prints the two ``run_tck.py`` command lines (see CONFORMANCE.md).
"""

from __future__ import annotations

import asyncio
import json
import shlex
import tempfile
from pathlib import Path

from agenthub import Agent, AgentKey, CallbackPolicy
from agenthub.transport import http_client
from app.main import create_app
from app.schema import migrate
from tests.support import LOOPBACK
from tests.support.a2a_peer import serve_peer
from tests.support.hub import REGISTRATION_TOKEN, hub_settings
from tests.support.kit import EchoHandler
from tests.support.live import LiveServer, bound_socket
from tests.support.oauth import agent_token


def _command(url: str, headers: dict[str, str]) -> str:
    """The TCK's command line for the SUT at ``url``: given without its trailing slash (the
    TCK appends ``/.well-known/agent-card.json`` to it as a string); its category is for the
    reader to choose (``transport-equivalence`` also wants ``--transports jsonrpc,rest``)."""
    variables = f"A2A_AUTH_HEADERS={shlex.quote(json.dumps(headers))}"
    return f"{variables} ./run_tck.py --sut-url {url.rstrip('/')} --category mandatory"


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite+aiosqlite:///{tmp}/hub.db"
        await asyncio.to_thread(migrate, database_url)
        settings = hub_settings(database_url, Path(tmp))
        hub = await LiveServer(create_app(settings)).start()
        sock = bound_socket()
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        partner = Agent(
            hub.url,
            key=AgentKey.generate(),
            handler=EchoHandler(),
            public_url=url,
            plain_http=True,
            a2a=True,
            callbacks=CallbackPolicy(allow_private=True),
            hub_http=http_client(timeout=LOOPBACK),
        )
        caller = Agent(hub.url, key=AgentKey.generate(), hub_http=http_client(timeout=LOOPBACK))
        for agent, name in ((partner, "tck-partner"), (caller, "tck-caller")):
            await agent.register(
                {"name": name, "description": f"{name}, for the A2A TCK"},
                registration_token=REGISTRATION_TOKEN,
            )
        server = LiveServer(
            partner.asgi, sock=sock, lifespan="off", **await partner.server_options()
        )
        await server.start()
        token = await agent_token(caller, partner.agent_id)
        async with serve_peer(versions=("1.0",)) as reference:
            print("hub      ", hub.url)
            print(
                "kit      ",
                _command(url, {"A2A-Version": "1.0", "Authorization": f"Bearer {token}"}),
            )
            print("reference", _command(f"{reference}/", {"A2A-Version": "1.0"}), flush=True)
            try:
                await asyncio.Event().wait()
            finally:
                await server.stop()
                await partner.aclose()
                await caller.aclose()
                await hub.stop()


if __name__ == "__main__":
    asyncio.run(main())
