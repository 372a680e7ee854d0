"""The kit's ``a2a`` extra is a range of a2a-sdk releases (kit/pyproject.toml), not a pin, so
that an agent's own a2a-sdk need not be the kit's. Both ends are tried as a user gets them: the
kit's wheel installed into a fresh venv with a2a-sdk at the range's lowest release, then
upgraded to the newest release the range admits, and at each an A2A round trip against a hub:
a kit partner answering a2a-sdk's own client (its card signed by the hub), and the kit's leader
calling that partner by A2A, recorded at the hub."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.support.cli import ServedHub, build_wheel, clean_env, run_ok
from tests.support.live import free_port

ROOT = Path(__file__).parents[2]
INSTALL_SECONDS = 600
SDK = "a2a-sdk[http-server,signing]"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        bool(os.environ.get("AGENTHUB_TEST_DATABASE_URL")),
        reason="independent of the store: the SQLite run of the suite covers it",
    ),
]


def a2a_range() -> Requirement:
    """The a2a-sdk requirement of the kit's ``a2a`` extra."""
    kit = tomllib.loads((ROOT / "kit" / "pyproject.toml").read_text())
    (line,) = kit["project"]["optional-dependencies"]["a2a"]
    return Requirement(line)


def test_the_a2a_extra_is_a_range_with_a_lower_bound() -> None:
    requirement = a2a_range()
    assert requirement.name == "a2a-sdk"
    operators = {spec.operator for spec in requirement.specifier}
    assert ">=" in operators and "<" in operators and "==" not in operators, requirement


def test_an_a2a_round_trip_works_at_both_ends_of_the_range(tmp_path: Path) -> None:
    requirement = a2a_range()
    (lowest,) = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    dist = tmp_path / "dist"
    build_wheel(ROOT / "kit", dist, timeout=INSTALL_SECONDS)
    (wheel,) = dist.glob("agenthub-*.whl")
    venv = tmp_path / "venv"
    run_ok(sys.executable, "-m", "venv", venv, cwd=tmp_path, timeout=INSTALL_SECONDS)
    pip = [venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run_ok(*pip, f"{wheel}[a2a]", f"{SDK}=={lowest}", cwd=tmp_path, timeout=INSTALL_SECONDS)

    said = [_round_trip(venv / "bin" / "python", tmp_path / "lowest")]
    assert said[0].startswith(f"a2a-sdk {lowest} "), said
    run_ok(
        *pip, "--upgrade", f"{SDK}{requirement.specifier}", cwd=tmp_path, timeout=INSTALL_SECONDS
    )
    newest = _installed(venv / "bin" / "python", tmp_path)
    assert newest in requirement.specifier
    if newest != lowest:  # while the lowest is the newest, one round trip tries both ends
        said.append(_round_trip(venv / "bin" / "python", tmp_path / "newest"))
    for line, version in zip(said, [lowest, newest], strict=False):
        assert line.splitlines() == [
            f"a2a-sdk {version} TASK_STATE_COMPLETED echo: hi signed",
            "recorded completed",
        ]


def _installed(python: Path, cwd: Path) -> str:
    probe = "from importlib.metadata import version; print(version('a2a-sdk'))"
    return run_ok(python, "-c", probe, cwd=cwd, timeout=INSTALL_SECONDS).strip()


def _round_trip(python: Path, where: Path) -> str:
    """A hub (this checkout's), a kit partner and a caller, all on loopback; the caller's
    output."""
    where.mkdir()
    (where / "partner.py").write_text(PARTNER)
    (where / "caller.py").write_text(CALLER)
    with ServedHub(where, clean_env(AGENTHUB_OPERATOR_TOKEN="op")) as hub:
        env = clean_env(HUB=hub.url, TOKEN="op", PORT=str(free_port()))
        partner = subprocess.Popen(
            [python, "partner.py"],
            cwd=where,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert partner.stdout is not None
            assert partner.stdout.readline().startswith("serving"), partner.stdout.read()
            return run_ok(python, "caller.py", cwd=where, env=env, timeout=INSTALL_SECONDS)
        finally:
            partner.send_signal(2)
            partner.wait(15)


PARTNER = textwrap.dedent(
    """
    import asyncio, os
    from agenthub import Agent, TaskContext, TaskHandler

    class Echo(TaskHandler):
        async def on_start(self, task: TaskContext) -> None:
            item = {"type": "text", "text": "echo: %s" % task.text}
            await task.await_completion([{"id": "e", "dataItems": [item]}])

    async def main() -> None:
        agent = Agent(os.environ["HUB"], state=".agenthub/echo.json", handler=Echo(), a2a=True,
                      public_url="http://127.0.0.1:%s/" % os.environ["PORT"], plain_http=True)
        card = {"name": "echo", "description": "echo", "skills": [{"id": "echo", "name": "Echo"}]}
        await agent.join(card, registration_token=os.environ["TOKEN"])
        print("serving", agent.agent_id, flush=True)
        await agent.serve()

    asyncio.run(main())
    """
)

CALLER = textwrap.dedent(
    """
    import asyncio, os
    from importlib.metadata import version
    import httpx
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.helpers import new_text_message
    from a2a.types import Role, SendMessageRequest, TaskState
    from agenthub import Agent
    from agenthub.a2a.card import check_card_signature
    from agenthub.signing import CallTokenAuth

    async def main() -> None:
        me = Agent(os.environ["HUB"], state=".agenthub/caller.json")
        await me.join({"name": "caller", "description": "asks"},
                      registration_token=os.environ["TOKEN"])
        echo = (await me.hub.list_agents(skill="echo", status="online")).items[0].id
        url = "http://127.0.0.1:%s/" % os.environ["PORT"]
        # a2a-sdk's own client, a call token on every request
        auth = CallTokenAuth(me.key, caller_id=me.agent_id, callee_id=echo)
        async with httpx.AsyncClient(auth=auth, timeout=60) as http:
            card = await A2ACardResolver(http, url).get_agent_card()
            jwks = (await http.get(os.environ["HUB"] + "/.well-known/jwks.json")).json()
            signed = "signed" if check_card_signature(card, jwks) else "unsigned"
            client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
            request = SendMessageRequest(message=new_text_message("hi", role=Role.ROLE_USER))
            async for event in client.send_message(request):
                task = event.task
            echoed = task.artifacts[0].parts[0].text
            state = TaskState.Name(task.status.state)
            print("a2a-sdk", version("a2a-sdk"), state, echoed, signed)
        # the kit's leader calling the partner's A2A side, the task recorded at the hub
        me.leader.use_a2a(echo, url + ".well-known/agent-card.json")
        session = await me.leader.open_session([echo])
        await me.leader.start(echo, session_id=session.id, text="recorded", task_id="t-a2a")
        await me.leader.complete(echo, session_id=session.id, task_id="t-a2a")
        await me.recorder.flush(10)
        record = await me.hub.request("GET", f"/v1/tasks/t-a2a?sessionId={session.id}")
        print("recorded", record.json()["state"])
        await me.aclose()

    asyncio.run(main())
    """
)
