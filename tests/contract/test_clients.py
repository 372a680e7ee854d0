"""The generated clients: current with the API description, and usable for a whole flow."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agenthub import AgentKey, HubClient
from app.config import Settings
from app.main import create_app
from tests.support.hub import ISSUER, REGISTRATION_TOKEN, empty_tables
from tests.support.live import LiveServer

ROOT = Path(__file__).parents[2]
CLIENTS = ROOT / "openapi" / "clients"
TYPESCRIPT = CLIENTS / "typescript"
PYTHON_CLIENT = CLIENTS / "python"


# builds in the checkout's own folders (node_modules, the client's build): store-independent,
# so run once, in the SQLite run, and never beside the PostgreSQL run's copy of itself
ONCE = pytest.mark.skipif(
    bool(os.environ.get("AGENTHUB_TEST_DATABASE_URL")),
    reason="independent of the store: the SQLite run of the suite covers it",
)


def spec_version() -> str:
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    version: str = spec["info"]["version"]
    return version


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if "__pycache__" not in p.parts}


def _tree_differences(a: Path, b: Path) -> list[str]:
    diff = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out = [f"only in one: {n}" for n in diff.left_only + diff.right_only]
    out += [f"differs: {n}" for n in diff.diff_files]
    for name, sub in diff.subdirs.items():
        out += [f"{name}/{d}" for d in _tree_differences(Path(sub.left), Path(sub.right))]
    return out


def test_the_python_client_is_generated_from_the_current_description(tmp_path: Path) -> None:
    target = tmp_path / "python"
    run = subprocess.run(
        ["sh", str(CLIENTS / "python-client.sh"), str(target)],
        env={**os.environ, "BIN": str(Path(sys.executable).parent)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert _tree_differences(PYTHON_CLIENT, target) == [], "run openapi/clients/generate.sh"


def test_the_python_client_leaves_out_the_event_streams() -> None:
    """The description keeps its SSE operations; the generated client has none (the kit is
    the SSE client), and everything else."""
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    operations = {op["operationId"]: op for item in spec["paths"].values() for op in item.values()}
    streams = {
        name
        for name, op in operations.items()
        if any("text/event-stream" in r.get("content", {}) for r in op["responses"].values())
    }
    assert streams == {"stream_inbox", "stream_group_events", "stream_operator_events"}
    generated = {path.stem for path in (PYTHON_CLIENT / "agenthub_client" / "api").glob("*/*.py")}
    assert generated - {"__init__"} == operations.keys() - streams


@pytest.mark.slow
@ONCE
def test_the_python_client_installs_with_pip_in_a_fresh_venv(tmp_path: Path) -> None:
    before = _files(PYTHON_CLIENT)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    install = subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(PYTHON_CLIENT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    probe = (
        "import importlib.metadata as m, importlib.resources as r, agenthub_client\n"
        "from agenthub_client.api.agents import list_agents\n"
        "from agenthub_client import AuthenticatedClient\n"
        "print(agenthub_client.__file__)\n"
        "print(m.version('agenthub-api-client'))\n"
        "print(r.files('agenthub_client').joinpath('py.typed').is_file())\n"
    )
    run = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    assert run.returncode == 0, run.stderr
    where, version, typed = run.stdout.split()
    assert where.startswith(str(venv)), where  # the installed copy, not the checkout
    assert version == spec_version() and typed == "True"
    assert _files(PYTHON_CLIENT) == before, "pip install left files in the checkout"


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs Node.js and npm (CI has them)")
@pytest.mark.slow
@ONCE
def test_the_typescript_types_are_current_and_compile(tmp_path: Path) -> None:
    def npm(*args: str) -> None:
        run = subprocess.run(
            list(args), cwd=TYPESCRIPT, capture_output=True, text=True, timeout=600
        )
        assert run.returncode == 0, run.stdout + run.stderr

    npm("npm", "ci", "--no-audit", "--no-fund", "--silent")
    fresh = tmp_path / "schema.d.ts"
    npm("npx", "openapi-typescript", "../../openapi.json", "-o", str(fresh))
    assert fresh.read_text() == (TYPESCRIPT / "src" / "schema.d.ts").read_text(), (
        "run openapi/clients/generate.sh"
    )
    npm("npx", "tsc", "--noEmit")


async def test_a_whole_flow_through_the_generated_python_client(settings: Settings) -> None:
    from agenthub_client import AuthenticatedClient, Client
    from agenthub_client.api.agents import register_agent
    from agenthub_client.api.auth import create_token
    from agenthub_client.api.groups import create_group, list_group_messages, post_group_message
    from agenthub_client.api.sessions import create_session
    from agenthub_client.models import (
        AgentRegistration,
        GroupCreate,
        Message,
        SessionCreate,
        TokenRequest,
    )

    server = await LiveServer(create_app(settings)).start()
    try:
        key = AgentKey.generate()
        registrar = AuthenticatedClient(base_url=server.url, token=REGISTRATION_TOKEN)
        body = {
            "name": "generated",
            "description": "made with the generated client",
            "skills": [],
            "publicJwk": key.public_jwk,
        }
        created = await register_agent.asyncio_detailed(
            client=registrar, body=AgentRegistration.from_dict(body)
        )
        assert created.status_code == 201, created.content
        agent_id = created.parsed.id  # type: ignore[union-attr]
        assertion = HubClient(server.url, key=key, agent_id=agent_id).make_assertion(
            issuer=ISSUER, nonce="n-1"
        )
        token = await create_token.asyncio(
            client=Client(base_url=server.url), body=TokenRequest(assertion=assertion)
        )
        assert token is not None and token.token_type == "bearer"
        client = AuthenticatedClient(base_url=server.url, token=token.access_token)
        session = await create_session.asyncio(client=client, body=SessionCreate.from_dict({}))
        group = await create_group.asyncio(
            client=client,
            body=GroupCreate.from_dict({"sessionId": session.id, "name": "generated team"}),  # type: ignore[union-attr]
        )
        message = Message.from_dict(
            {
                "type": "message",
                "id": "gen-1",
                "sentAt": "2026-12-01T00:00:00Z",
                "senderRole": "leader",
                "senderId": agent_id,
                "dataItems": [{"type": "text", "text": "hello from a generated client"}],
            }
        )
        posted = await post_group_message.asyncio_detailed(group.id, client=client, body=message)  # type: ignore[union-attr]
        assert posted.status_code == 201, posted.content
        page = await list_group_messages.asyncio(group.id, client=client)  # type: ignore[union-attr]
        items: list[Any] = page.items  # type: ignore[union-attr]
        assert [m.id for m in items] == ["gen-1"]
        assert items[0].seq == 2 and items[0].data_items[0].text == "hello from a generated client"
    finally:
        await server.stop()
        await empty_tables(settings.database_url)
