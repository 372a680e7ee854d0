"""The distributions as users get them: wheels built from this checkout and installed, not
editable, into fresh venvs, then used from directories that have nothing of the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from agenthub import __version__
from tests.support.cli import ServedHub, build_wheel, clean_env, run_ok
from tests.support.live import free_port

ROOT = Path(__file__).parents[2]
INSTALL_SECONDS = 600

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        bool(os.environ.get("AGENTHUB_TEST_DATABASE_URL")),
        reason="independent of the store: the SQLite run of the suite covers it",
    ),
]


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    for project in (ROOT / "kit", ROOT):
        build_wheel(project, out, timeout=INSTALL_SECONDS)
    built = {p.name.split("-")[0]: p for p in out.glob("*.whl")}
    assert set(built) == {"agenthub", "agenthub_hub"}, built
    return built


def _venv(where: Path, *wheels: Path) -> Path:
    run_ok(sys.executable, "-m", "venv", where, cwd=where.parent)
    pip = [where / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run_ok(*pip, *wheels, cwd=where.parent, timeout=INSTALL_SECONDS)
    return where / "bin"


@pytest.fixture(scope="module")
def kit_bin(wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(tmp_path_factory.mktemp("kit") / "venv", wheels["agenthub"])


@pytest.fixture(scope="module")
def hub_bin(wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(
        tmp_path_factory.mktemp("hub") / "venv", wheels["agenthub"], wheels["agenthub_hub"]
    )


def test_the_kit_wheel_holds_only_the_kit(wheels: dict[str, Path]) -> None:
    import zipfile

    names = zipfile.ZipFile(wheels["agenthub"]).namelist()
    assert {n.split("/")[0] for n in names} == {"agenthub", f"agenthub-{__version__}.dist-info"}
    assert "agenthub/py.typed" in names and "agenthub/protocol/messages.py" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    hub = zipfile.ZipFile(wheels["agenthub_hub"]).namelist()
    assert "app/migrations/env.py" in hub and not any(n.startswith("agenthub/") for n in hub)


def test_both_wheels_name_the_project_urls(wheels: dict[str, Path]) -> None:
    import zipfile

    for wheel in wheels.values():
        archive = zipfile.ZipFile(wheel)
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        urls = dict(
            line.removeprefix("Project-URL: ").split(", ", 1)
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Project-URL: ")
        )
        assert set(urls) == {"Homepage", "Documentation", "Source", "Changelog", "Issues"}, wheel
        assert all(url.startswith("https://") for url in urls.values()), urls
        assert urls["Changelog"].endswith("/CHANGELOG.md")


def test_the_hub_wheel_ships_the_console(wheels: dict[str, Path]) -> None:
    import zipfile

    from app.console import shipped_assets

    names = set(zipfile.ZipFile(wheels["agenthub_hub"]).namelist())
    console = {f"app/console/assets/{name}" for name in shipped_assets()}
    assert {"app/console/assets/index.html", "app/console/assets/js/main.js"} <= console
    assert console <= names, sorted(console - names)


def test_a_kit_only_venv_runs_a_partner_and_a_leader(kit_bin: Path, tmp_path: Path) -> None:
    # the agent developer's own service has an `app` package: it must not shadow the kit
    service = tmp_path / "my-service"
    (service / "app").mkdir(parents=True)
    (service / "app" / "__init__.py").write_text("")
    (service / "app" / "agent.py").write_text("MINE = True\n")
    hub_only = "('fastapi', 'sqlalchemy', 'alembic', 'rich')"
    probe = f"import importlib.util as u; print([m for m in {hub_only} if u.find_spec(m)])"
    assert run_ok(kit_bin / "python", "-c", probe, cwd=service).strip() == "[]"
    (service / "partner.py").write_text(PARTNER)
    (service / "leader.py").write_text(LEADER)

    with ServedHub(tmp_path, clean_env(AGENTHUB_OPERATOR_TOKEN="op")) as hub:
        env = clean_env(HUB=hub.url, TOKEN="op", PORT=str(free_port()))
        partner = subprocess.Popen(
            [kit_bin / "python", "partner.py"],
            cwd=service,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert partner.stdout is not None
            assert partner.stdout.readline().startswith("serving"), partner.stdout.read()
            answer = run_ok(kit_bin / "python", "leader.py", cwd=service, env=env, timeout=60)
        finally:
            partner.send_signal(2)
            partner.wait(15)
    assert answer.strip() == "echo: hello from a kit-only venv; mine: True"
    assert partner.returncode == 0


PARTNER = textwrap.dedent(
    """
    import asyncio, os
    from agenthub import Agent, TaskContext, TaskHandler
    from app.agent import MINE  # the service's own package, beside the kit

    class Echo(TaskHandler):
        async def on_start(self, task: TaskContext) -> None:
            item = {"type": "text", "text": task.text}
            await task.await_completion([{"id": "e", "dataItems": [item]}])

    async def main() -> None:
        agent = Agent(os.environ["HUB"], state=".agenthub/echo.json", handler=Echo(),
                      public_url="https://127.0.0.1:%s/" % os.environ["PORT"])  # mutual TLS
        card = {"name": "echo", "description": "echo", "skills": [{"id": "echo", "name": "Echo"}]}
        await agent.join(card, registration_token=os.environ["TOKEN"])
        print("serving", agent.agent_id, MINE, flush=True)
        await agent.serve()

    asyncio.run(main())
    """
)

LEADER = textwrap.dedent(
    """
    import asyncio, os
    from agenthub import Agent
    from app.agent import MINE

    async def main() -> None:
        agent = Agent(os.environ["HUB"], state=".agenthub/leader.json")
        card = {"name": "leader", "description": "asks"}
        await agent.join(card, registration_token=os.environ["TOKEN"])
        echo = (await agent.hub.list_agents(skill="echo", status="online")).items[0].id
        session = await agent.leader.open_session([echo])
        text = "hello from a kit-only venv"
        done = await agent.leader.start(echo, session_id=session.id, text=text)
        await agent.leader.complete(echo, session_id=session.id, task_id=done["taskId"])
        await agent.recorder.flush(10)
        print("echo:", done["products"][0]["dataItems"][0]["text"] + "; mine:", MINE)
        await agent.aclose()

    asyncio.run(main())
    """
)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A directory with nothing of the checkout in it."""
    place = tmp_path / "somewhere" / "else"
    place.mkdir(parents=True)
    yield place


def test_the_hub_wheel_migrates_serves_checks_and_demos_anywhere(
    hub_bin: Path, elsewhere: Path
) -> None:
    agenthub = hub_bin / "agenthub"
    assert f"agenthub-hub {__version__}" in run_ok(agenthub, "--version", cwd=elsewhere)
    assert (
        "applied 0001, 0002, 0003, 0004, 0005, 0006, 0007, 0008, 0009, 0010, 0011, 0012, 0013, "
        "0014, 0015, 0016, 0017" in run_ok(agenthub, "migrate", cwd=elsewhere)
    )
    assert "all checks passed" in run_ok(agenthub, "check", cwd=elsewhere)
    with ServedHub(elsewhere, clean_env(), command=[str(agenthub)]) as hub:
        assert httpx.get(f"{hub.url}/readyz").status_code == 200
    assert "Traceback" not in hub.output
    demo = run_ok(
        agenthub,
        "demo",
        "--timeout",
        "120",
        cwd=elsewhere,
        env=clean_env(COLUMNS="200"),
        timeout=180,
    )
    assert "closed the session" in demo and "Communication channels used" in demo


@pytest.mark.parametrize(
    ("setting", "value", "extra"),
    [
        ("AGENTHUB_DATABASE_URL", "postgresql+asyncpg://u@127.0.0.1:5432/db", "postgres"),
        ("AGENTHUB_BROKER_URL", "redis://127.0.0.1:6379/0", "redis"),
    ],
)
def test_a_missing_extra_is_named_with_how_to_install_it(
    hub_bin: Path, elsewhere: Path, setting: str, value: str, extra: str
) -> None:
    result = subprocess.run(
        [hub_bin / "agenthub", "serve"],
        cwd=elsewhere,
        env=clean_env(**{setting: value}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"agenthub serve: {setting}: needs the {'asyncpg' if extra == 'postgres' else 'redis'} "
        f"package, which is not installed; pip install 'agenthub-hub[{extra}]'"
    ]
