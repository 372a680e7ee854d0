"""The console in a real browser (Debian's chromium, driven by Selenium through Debian's
chromedriver; nothing downloaded) against a live hub with real kit agents: sign in, find an
agent by search, watch a group's conversation take a message posted after the page loaded
without a reload, read a task's timeline. The four points a newcomer missed are checked too:
a session's tasks titled by their first command's text, a concluded group's members counted
as released, times with their date and zone (the browser runs in New York's), and a task's
record in causal order (the command before the answers it caused, though the answers were
stored first); and an application that called through a bridge session, named by its
name on the session's and the task's page. A screenshot of each page goes to the test's
directory, or to AGENTHUB_TEST_SCREENSHOTS when set (docs/console/ was made that way)."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from agenthub import AgentKey, HubClient
from app.config import Settings
from app.main import create_app
from tests.support.groups import STREAM_SETTINGS, create_group, post, team
from tests.support.hub import OPERATOR_TOKEN, REGISTRATION_TOKEN, card, empty_tables
from tests.support.live import LiveServer
from tests.support.messages import command, result, text
from tests.support.system import require

pytestmark = pytest.mark.slow

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,800",
    "--lang=en-US",
)
BROWSER_ZONE = "America/New_York"  # the browser's local time: not the machine's, not UTC
WAIT_SECONDS = 20.0
SSE_SAMPLE = (
    ": keep-alive\r\n\r\n"
    'id: 5\r\nevent: message\r\ndata: {"seq": 5}\r\n\r\n'
    "id: 6\revent: task\rdata: one\rdata: two\r\r"
    "data: no id, no event\n\n"
)
SSE_FRAMES = [
    {"id": "5", "event": "message", "data": '{"seq": 5}'},
    {"id": "6", "event": "task", "data": "one\ntwo"},
    {"id": "6", "event": "message", "data": "no id, no event"},
]


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    chromium = require("chromium", "chromium")
    driver = require("chromedriver", "chromium-driver")
    options = Options()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console errors
    service = Service(
        executable_path=driver,
        log_output=str(tmp_path / "chromedriver.log"),
        env={**os.environ, "TZ": BROWSER_ZONE, "LANG": "en_US.UTF-8"},
    )
    browser = webdriver.Chrome(options=options, service=service)
    # the page's own size, whatever the headless window's frame takes: the screenshots' size
    viewport = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", viewport)
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture
async def hub_server(settings: Settings) -> AsyncIterator[LiveServer]:
    await empty_tables(settings.database_url)  # the pages count what they show
    server = await LiveServer(create_app(settings.model_copy(update=STREAM_SETTINGS))).start()
    try:
        yield server
    finally:
        await server.stop()
        await empty_tables(settings.database_url)


@pytest.fixture
def hub_url(hub_server: LiveServer) -> str:
    return hub_server.url


def local_time(iso: str) -> str:
    """How the console should show ``iso`` in the browser's zone: date, time and zone."""
    at = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(ZoneInfo(BROWSER_ZONE))
    return at.strftime("%Y-%m-%d %H:%M:%S %Z")


class Team:
    """A leader and two members in a group (and a sub-group), with a finished task and a
    second one; a concluded group (its members released); and a point-to-point task whose
    answers reached the hub before the command that caused them."""

    def __init__(self, leader: HubClient, solver: HubClient, writer: HubClient) -> None:
        self.leader, self.solver, self.writer = leader, solver, writer
        self.group: dict[str, Any] = {}
        self.concluded: dict[str, Any] = {}
        self.task_id = "t-sqrt"
        self.second_task_id = "t-write"
        self.p2p_session_id = ""
        self.p2p_task_id = "t-check"
        self.p2p_causal_ids: list[str] = []  # the p2p task's messages, cause before effect

    @property
    def agents(self) -> tuple[HubClient, ...]:
        return self.leader, self.solver, self.writer

    async def work(self) -> None:
        leader, solver, writer = self.agents
        self.group = await team(leader, solver, writer, goal="calculate sqrt(9!)")
        gid, sid = self.group["id"], self.group["sessionId"]
        await create_group(writer, sid, name="write-up", parentGroupId=gid)
        await post(leader, gid, "We need sqrt(9!). Who takes it?", role="leader")
        await post(solver, gid, "I can: 9! = 362880.")
        start = command(
            str(leader.agent_id),
            "start",
            task_id=self.task_id,
            partnerId=solver.agent_id,
            dataItems=text("sqrt(362880)"),
        )
        await self._post(leader, start)
        for state in ("accepted", "working"):
            await self._post(solver, result(str(solver.agent_id), self.task_id, state))
        product = {"id": "root", "name": "the root", "dataItems": text("602.3952")}
        done = result(str(solver.agent_id), self.task_id, "awaiting-completion", products=[product])
        await self._post(solver, done)
        await self._post(leader, command(str(leader.agent_id), "complete", task_id=self.task_id))
        words = "Write up the result in one sentence.\nKeep it short."
        write = command(
            str(leader.agent_id),
            "start",
            task_id=self.second_task_id,
            partnerId=writer.agent_id,
            dataItems=text(words),
        )
        await self._post(leader, write)
        await self._conclude_a_group(sid)
        await self._answers_before_their_command()

    async def _conclude_a_group(self, session_id: str) -> None:
        leader, solver, writer = self.agents
        invited = [solver.agent_id, writer.agent_id]
        retro = await create_group(leader, session_id, name="retro", inviteIds=invited)
        for member in (solver, writer):
            path = f"/v1/groups/{retro['id']}/invitations/{member.agent_id}/accept"
            response = await member.request("POST", path)
            assert response.status_code == 200, response.text
        body = {"conversationState": "conclusion"}
        response = await leader.request("PATCH", f"/v1/groups/{retro['id']}", json=body)
        assert response.status_code == 200, response.text
        self.concluded = dict(response.json())

    async def _answers_before_their_command(self) -> None:
        """The partner's answers are stored first (its records reached the hub sooner), the
        leader's start and complete after them."""
        leader, solver, _ = self.agents
        body = {"receivers": [{"agentId": solver.agent_id, "mode": "p2p"}]}
        response = await leader.request("POST", "/v1/sessions", json=body)
        assert response.status_code == 201, response.text
        sid = self.p2p_session_id = str(response.json()["id"])
        task, me, partner = self.p2p_task_id, str(leader.agent_id), str(solver.agent_id)
        answers = [result(partner, task, s) for s in ("accepted", "working")]
        answers.append(result(partner, task, "awaiting-completion", dataItems=text("it is")))
        start = command(
            me, "start", task_id=task, partnerId=partner, dataItems=text("Check 602.3952^2")
        )
        complete = command(me, "complete", task_id=task)
        for agent, body in [*((solver, a) for a in answers), (leader, start), (leader, complete)]:
            response = await agent.request("POST", f"/v1/sessions/{sid}/messages", json=body)
            assert response.status_code in (201, 202), response.text
        self.p2p_causal_ids = [m["id"] for m in (start, *answers, complete)]
        path = f"/v1/sessions/{sid}/tasks/{task}/messages"
        stored = (await leader.request("GET", path)).json()["items"]
        assert [m["id"] for m in stored] == [m["id"] for m in (*answers, start, complete)]
        assert (await leader.request("GET", f"/v1/tasks/{task}")).json()["state"] == "completed"

    async def _post(self, agent: HubClient, body: dict[str, Any]) -> None:
        response = await agent.request("POST", f"/v1/groups/{self.group['id']}/messages", json=body)
        assert response.status_code == 201, response.text


@pytest.fixture
async def working_team(hub_url: str) -> AsyncIterator[Team]:
    skills = {
        "planner": [{"id": "plan", "name": "Planning", "tags": ["lead"]}],
        "square-root": [{"id": "sqrt", "name": "Square root", "tags": ["math"]}],
        "report-writer": [{"id": "write", "name": "Report writing", "tags": ["text"]}],
    }
    clients = []
    for name, skill in skills.items():
        kit = HubClient(hub_url, key=AgentKey.generate())
        description = f"{name}: {skill[0]['name'].lower()} for the team"
        body = card(name, kit.key, skills=skill, description=description)
        await kit.register(body, registration_token=REGISTRATION_TOKEN)
        clients.append(kit)
    crew = Team(*clients)
    await crew.work()
    try:
        yield crew
    finally:
        for kit in clients:
            await kit.aclose()


class Page:
    """The browser, from the test's worker thread; `hub(coro)` runs on the hub's loop."""

    def __init__(self, driver: WebDriver, url: str, shots: Path, loop: Any) -> None:
        self.driver, self.url, self.shots, self.loop = driver, url, shots, loop

    def hub(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(WAIT_SECONDS)

    def wait(self, condition: Callable[[WebDriver], Any], what: str) -> Any:
        try:
            # a list the live stream re-renders may drop an element between two looks at it
            ignored = (NoSuchElementException, StaleElementReferenceException)
            return WebDriverWait(self.driver, WAIT_SECONDS, ignored_exceptions=ignored).until(
                condition
            )
        except Exception as exc:
            shown = self.driver.find_element(By.TAG_NAME, "body").text
            raise AssertionError(f"waited for {what}; the page shows:\n{shown}") from exc

    def text_of(self, selector: str) -> str:
        return "\n".join(e.text for e in self.driver.find_elements(By.CSS_SELECTOR, selector))

    def open(self, hash_: str) -> None:
        self.driver.execute_script("location.hash = arguments[0]", hash_)

    def shoot(self, name: str) -> None:
        self.driver.execute_script("window.scrollTo(0, 0)")
        assert self.driver.save_screenshot(str(self.shots / f"{name}.png"))

    def parse_sse(self, text: str) -> list[dict[str, str]]:
        """The frames the console's SSE parser makes of ``text``, fed three characters at a
        time (line ends split across chunks, as the network may split them)."""
        script = """
            const [text, done] = arguments;
            import(new URL("js/sse.js", document.baseURI)).then(({ SSEParser }) => {
              const frames = [];
              const parser = new SSEParser((frame) => frames.push(frame));
              for (let i = 0; i < text.length; i += 3) parser.feed(text.slice(i, i + 3));
              done(frames);
            });
        """
        frames: list[dict[str, str]] = self.driver.execute_async_script(script, text)
        return frames

    def causal_order(self, messages: list[dict[str, Any]]) -> list[str]:
        """The ids of ``messages`` (a task's record as stored) in the console's causal order."""
        script = """
            const [messages, done] = arguments;
            import(new URL("js/causal.js", document.baseURI)).then(({ causalOrder }) => {
              done(causalOrder(messages).map((m) => m.id));
            });
        """
        ids: list[str] = self.driver.execute_async_script(script, messages)
        return ids

    def get(self, agent: HubClient, path: str) -> dict[str, Any]:
        response = self.hub(agent.request("GET", path))
        assert response.status_code == 200, response.text
        return dict(response.json())

    def errors(self) -> list[str]:
        return [
            entry["message"]
            for entry in self.driver.get_log("browser")
            if entry["level"] == "SEVERE" and "favicon" not in entry["message"]
        ]


def task_titles(driver: WebDriver) -> dict[str, str]:
    rows = driver.find_elements(By.CSS_SELECTOR, "tr[data-task-id]")
    title = ".task-title"
    return {
        r.get_attribute("data-task-id") or "": r.find_element(By.CSS_SELECTOR, title).text
        for r in rows
    }


def record_ids(driver: WebDriver) -> list[str]:
    rows = driver.find_elements(By.CSS_SELECTOR, "table.record tbody tr[data-id]")
    return [row.get_attribute("data-id") or "" for row in rows]


def as_record(what: str) -> dict[str, Any]:
    """A leader's command or a partner's answer, as a task's record lists it, its id ``what``
    (``working#2``: the second time the task is ``working``)."""
    kind = what.partition("#")[0]
    if kind in ("start", "complete", "continue", "cancel"):
        return {"type": "task-command", "id": what, "command": kind, "senderRole": "leader"}
    status = {"state": kind, "stateChangedAt": "2026-01-01T00:00:00Z"}
    return {"type": "task-result", "id": what, "status": status, "senderRole": "partner"}


def drive(page: Page, crew: Team) -> None:
    driver = page.driver
    solver, writer = crew.solver, crew.writer
    gid, sid = crew.group["id"], crew.group["sessionId"]

    # sign in: the token goes into the form, never into a URL
    driver.get(f"{page.url}/console")
    token = page.wait(lambda d: d.find_element(By.ID, "token"), "the sign-in form")
    token.send_keys(OPERATOR_TOKEN)
    driver.find_element(By.CSS_SELECTOR, "form.sign-in button").click()
    page.wait(lambda d: "signed in as operator" in d.find_element(By.ID, "who").text, "sign-in")
    assert OPERATOR_TOKEN not in driver.current_url
    assert driver.current_url.startswith(f"{page.url}/console/")
    page.wait(lambda d: "open streams" in d.find_element(By.ID, "health").text, "the health strip")
    assert page.parse_sse(SSE_SAMPLE) == SSE_FRAMES  # the console's own SSE parser, in Chromium

    # agents: a described need finds the square-root agent first, with its score
    page.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tbody tr[data-agent-id]")) == 3, "3")
    driver.find_element(By.NAME, "q").send_keys("square root")
    first = "tbody tr[data-agent-id]:first-child"

    def found(d: WebDriver) -> bool:
        rows = d.find_elements(By.CSS_SELECTOR, first)  # a searched list: scores, not "—"
        scored = rows and rows[0].find_element(By.CSS_SELECTOR, "td.num").text != "—"
        return bool(scored) and rows[0].get_attribute("data-agent-id") == solver.agent_id

    page.wait(found, "the search's best match")
    row = driver.find_element(By.CSS_SELECTOR, first).text
    assert "square-root" in row and "Square root" in row and "none" in row  # no certificate
    assert "q=square+root" in driver.current_url
    page.shoot("agents")

    # sessions: the session's participants with their modes, its task's state trail
    page.open(f"#/sessions/{sid}")
    page.wait(lambda d: crew.task_id in page.text_of("section"), "the session's task")
    page.wait(lambda d: "completed" in page.text_of("ol.trail"), "the task's trail")
    assert "group" in page.text_of("section table")  # the receivers' mode
    page.wait(lambda d: "write-up" in page.text_of("section"), "the session's groups")
    # each task titled by its first command's text (the first line), its id small below
    titles = {
        crew.task_id: "sqrt(362880)",
        crew.second_task_id: "Write up the result in one sentence.",
    }
    page.wait(lambda d: task_titles(d) == titles, f"the tasks titled {titles}")
    assert {crew.task_id, crew.second_task_id} <= set(page.text_of(".task-id").split())
    # the concluded group's members were released: counted as such, not as 0
    page.wait(lambda d: "0 active · 3 released" in page.text_of("section table"), "released")
    # times: the local date, time and zone (the browser's zone is New York's, the hub's UTC)
    session = page.get(crew.leader, f"/v1/sessions/{sid}")
    assert f"created{local_time(session['createdAt'])}" in page.text_of(".facts").replace("\n", "")
    task = page.get(crew.leader, f"/v1/tasks/{crew.task_id}")
    row = f"tr[data-task-id='{crew.task_id}'] ol.trail li:first-child"
    assert page.text_of(row).split("\n")[-1] == local_time(task["createdAt"])
    page.shoot("sessions")

    # the group: its conversation, then a message posted now appears without a reload
    page.open(f"#/groups/{gid}")
    page.wait(lambda d: "I can: 9! = 362880." in page.text_of(".messages"), "the conversation")
    page.wait(lambda d: "write-up" in page.text_of(".tree"), "the team tree")
    driver.execute_script("window.consoleLoadedOnce = true")
    page.hub(post(writer, gid, "Posted after the page loaded: the write-up is ready."))
    page.wait(
        lambda d: "Posted after the page loaded" in page.text_of(".messages"), "the live message"
    )
    assert driver.execute_script("return window.consoleLoadedOnce") is True  # not reloaded
    members = page.text_of("table")
    assert "owner" in members and "member" in members
    page.shoot("group")

    # the task: its status history as a timeline, its product, who recorded what
    driver.find_element(By.LINK_TEXT, crew.task_id).click()
    page.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".timeline .step")) == 5, "steps")
    steps = page.text_of(".timeline .step")
    for state in ("submitted", "accepted", "working", "awaiting-completion", "completed"):
        assert state in steps
    assert "602.3952" in page.text_of(".product")
    page.wait(lambda d: "complete" in page.text_of("table"), "the record")
    assert "sqrt(362880)" in page.text_of("h1")  # titled by its first command too
    page.shoot("task")

    # a record stored answers first: the command shown before the answers it caused
    page.open(f"#/tasks/{crew.p2p_task_id}?sessionId={crew.p2p_session_id}")
    page.wait(lambda d: "Check 602.3952^2" in page.text_of("h1"), "the point-to-point task")
    page.wait(lambda d: len(record_ids(d)) == 5, "its record")
    assert record_ids(driver) == crew.p2p_causal_ids
    # and a leader's command stored before the answer it reacts to comes after it
    stored = ["start", "accepted", "working", "complete", "awaiting-completion", "completed"]
    assert page.causal_order([as_record(what) for what in stored]) == [
        "start",
        "accepted",
        "working",
        "awaiting-completion",
        "complete",
        "completed",
    ]
    # a second round (a question answered, the work again) keeps its order too
    stored = ["start", "accepted", "working", "awaiting-input", "working#2"]
    stored += ["awaiting-completion", "continue", "complete", "completed"]
    assert page.causal_order([as_record(what) for what in stored]) == [
        "start",
        "accepted",
        "working",
        "awaiting-input",
        "continue",
        "working#2",
        "awaiting-completion",
        "complete",
        "completed",
    ]
    assert not page.errors(), page.errors()


ACCENT = (0x1F, 0x4E, 0x79)  # console.css's --accent: the header's band
PAPER = (0xF6, 0xF8, 0xFB)  # its --paper: the page's ground
CARD = (0xFF, 0xFF, 0xFF)


def drive_the_front_page(page: Page) -> None:
    driver = page.driver
    driver.get(f"{page.url}/")
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".links .card"), "the links")
    sheets = driver.execute_script(
        "return [...document.styleSheets].map((s) => [s.href, s.cssRules.length])"
    )
    assert sheets == [[f"{page.url}/console/console.css", sheets[0][1]]] and sheets[0][1] > 50
    cards = driver.find_elements(By.CSS_SELECTOR, ".links .card")
    assert len(cards) == 6 and all(c.find_element(By.TAG_NAME, "p").text for c in cards)
    page.shoot("home")
    with Image.open(page.shots / "home.png") as shot:
        rgb = shot.convert("RGB")
        header = driver.find_element(By.CSS_SELECTOR, "header.top").rect
        card = cards[0].rect
        assert rgb.getpixel((int(header["x"]) + 5, int(header["y"]) + 5)) == ACCENT
        assert rgb.getpixel((rgb.width - 5, rgb.height - 5)) == PAPER
        assert rgb.getpixel((int(card["x"] + card["width"] / 2), int(card["y"]) + 3)) == CARD
    assert not page.errors(), page.errors()


async def test_the_hubs_front_page_has_the_consoles_look(
    browser: WebDriver, hub_url: str, tmp_path: Path
) -> None:
    """`GET /` in the browser: the console's stylesheet loaded (its header band, its ground
    and its cards in the screenshot), each link with what it is for."""
    page = Page(browser, hub_url, tmp_path, asyncio.get_running_loop())
    await asyncio.to_thread(drive_the_front_page, page)


async def test_the_console_signs_in_searches_and_follows_a_group_live(
    browser: WebDriver, hub_url: str, working_team: Team, tmp_path: Path
) -> None:
    page = Page(browser, hub_url, tmp_path, asyncio.get_running_loop())
    await asyncio.to_thread(drive, page, working_team)
    shots = sorted(p.name for p in tmp_path.glob("*.png"))
    assert shots == ["agents.png", "group.png", "sessions.png", "task.png"]
    if target := os.environ.get("AGENTHUB_TEST_SCREENSHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        for shot in shots:
            shutil.copy(tmp_path / shot, Path(target) / shot)


def sign_in(page: Page, token: str) -> None:
    page.driver.get(f"{page.url}/console/")
    page.wait(lambda d: d.find_element(By.ID, "token"), "the sign-in form").send_keys(token)
    page.driver.find_element(By.CSS_SELECTOR, "form.sign-in button").click()
    page.wait(lambda d: "signed in as" in d.find_element(By.ID, "who").text, "sign-in")


def drive_a_wide_group(page: Page, gid: str) -> None:
    driver = page.driver
    viewport = {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", viewport)
    sign_in(page, OPERATOR_TOKEN)
    page.open(f"#/groups/{gid}")
    page.wait(lambda d: "waits for" in page.text_of("section").lower(), "the triggers")
    page.wait(lambda d: "planner" in page.text_of(".facts"), "the owner's name")
    # the owner left the hub: still named (its id on hover says so), in the members too
    owner = driver.find_element(By.CSS_SELECTOR, ".facts a.agent")
    assert owner.text == "planner" and "deregistered" in (owner.get_attribute("title") or "")
    assert "deregistered" in (owner.get_attribute("class") or "")
    page.wait(lambda d: "planner" in page.text_of("table"), "the owner among the members")
    widths = driver.execute_script(
        "const e = document.documentElement; return [e.scrollWidth, e.clientWidth]"
    )
    page.shoot("group-1400")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    assert not page.errors(), page.errors()


async def test_a_group_page_fits_1400_pixels_and_names_an_owner_who_left(
    browser: WebDriver, hub_url: str, working_team: Team, tmp_path: Path
) -> None:
    """A paused group waiting on a trigger for tasks with long ids and a deadline, whose
    owner then deregistered: the page needs no sideways scroll at 1400 px, and the owner
    is still shown by name."""
    leader, solver, writer = working_team.agents
    group = await team(leader, solver, writer, goal="wide tables")
    gid = group["id"]
    long_ids = [f"task-{n}-{uuid.uuid4()}-{uuid.uuid4()}" for n in (1, 2, 3)]
    for task_id, partner in zip(long_ids, (solver, writer, solver), strict=True):
        start = command(
            str(leader.agent_id), "start", task_id=task_id, partnerId=partner.agent_id,
            dataItems=text(f"part of {task_id}"),
        )  # fmt: skip
        response = await leader.request("POST", f"/v1/groups/{gid}/messages", json=start)
        assert response.status_code == 201, response.text
    for state in ("async-task-assignment", "pause-and-trigger"):
        body = {"conversationState": state}
        response = await leader.request("PATCH", f"/v1/groups/{gid}", json=body)
        assert response.status_code == 200, response.text
    body = {"taskIds": long_ids, "timeoutSeconds": 3600}
    response = await leader.request("POST", f"/v1/groups/{gid}/triggers", json=body)
    assert response.status_code == 201, response.text
    gone = await leader.request("DELETE", f"/v1/agents/{leader.agent_id}")
    assert gone.status_code == 204, gone.text
    page = Page(browser, hub_url, tmp_path, asyncio.get_running_loop())
    await asyncio.to_thread(drive_a_wide_group, page, gid)


def drive_as_agent(page: Page, token: str, crew: Team) -> None:
    driver = page.driver
    driver.get(f"{page.url}/console/")
    page.wait(lambda d: d.find_element(By.ID, "token"), "the sign-in form").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "form.sign-in button").click()
    page.wait(lambda d: "signed in as agent" in d.find_element(By.ID, "who").text, "sign-in")
    page.wait(lambda d: "agent view" in d.find_element(By.ID, "health").text, "the strip")
    page.open(f"#/groups/{crew.group['id']}")
    page.wait(lambda d: "I can: 9! = 362880." in page.text_of(".messages"), "the conversation")
    page.wait(lambda d: page.text_of(".live-state .pill") == "live", "the member's stream")
    page.hub(post(crew.leader, crew.group["id"], "Seen by a member's console too."))
    page.wait(lambda d: "Seen by a member" in page.text_of(".messages"), "the live message")
    page.open("#/groups")
    page.wait(lambda d: "needs the operator token" in page.text_of("main"), "the degraded page")


async def test_an_agents_token_shows_what_that_agent_may_see(
    browser: WebDriver, hub_url: str, working_team: Team, tmp_path: Path
) -> None:
    token = await working_team.solver.access_token()
    page = Page(browser, hub_url, tmp_path, asyncio.get_running_loop())
    await asyncio.to_thread(drive_as_agent, page, token, working_team)


def drive_through_a_restart(page: Page, crew: Team, server: LiveServer) -> None:
    driver = page.driver
    driver.get(f"{page.url}/console/")
    page.wait(lambda d: d.find_element(By.ID, "token"), "the sign-in form").send_keys(
        OPERATOR_TOKEN
    )
    driver.find_element(By.CSS_SELECTOR, "form.sign-in button").click()
    page.open(f"#/groups/{crew.group['id']}")
    page.wait(lambda d: "I can: 9! = 362880." in page.text_of(".messages"), "the conversation")
    page.wait(lambda d: page.text_of("#health .live .pill") == "live", "the live stream")
    driver.execute_script("window.consoleLoadedOnce = true")
    page.hub(server.stop())
    page.wait(lambda d: page.text_of("#health .live .pill") == "retrying", "the stream's drop")
    page.hub(server.restart())
    page.wait(lambda d: page.text_of("#health .live .pill") == "live", "the stream back")
    page.hub(post(crew.solver, crew.group["id"], "Said after the hub came back."))
    page.wait(lambda d: "Said after the hub came back." in page.text_of(".messages"), "it")
    assert driver.execute_script("return window.consoleLoadedOnce") is True
    assert page.text_of(".messages").count("I can: 9! = 362880.") == 1  # shown once


async def test_the_console_resumes_its_stream_when_the_hub_comes_back(
    browser: WebDriver, hub_server: LiveServer, working_team: Team, tmp_path: Path
) -> None:
    page = Page(browser, hub_server.url, tmp_path, asyncio.get_running_loop())
    await asyncio.to_thread(drive_through_a_restart, page, working_team, hub_server)


async def bridged_by_an_application(hub_url: str) -> tuple[str, str, HubClient]:
    """A bridge session an application the operator registered called through (as a kit
    partner records an A2A caller holding the application's OAuth token), with a task."""
    async with httpx.AsyncClient(timeout=WAIT_SECONDS) as http:
        made = await http.post(
            f"{hub_url}/v1/operator/oauth-clients",
            json={"name": "the night report"},
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
    app_id = made.json()["clientId"]
    kit = HubClient(hub_url, key=AgentKey.generate())
    await kit.register(card("bridge", kit.key), registration_token=REGISTRATION_TOKEN)
    me = str(kit.agent_id)
    body = {
        "bridge": {
            "protocol": "a2a",
            "contextId": "ctx",
            "callerId": app_id,
            "callerKind": "application",
        },
        "receivers": [{"agentId": me, "mode": "p2p"}],
    }
    session = (await kit.request("POST", "/v1/sessions", json=body)).json()
    start = command(me, "start", task_id="t-night", partnerId=me, dataItems=text("report"))
    posted = await kit.request("POST", f"/v1/sessions/{session['id']}/messages", json=start)
    assert posted.status_code == 201, posted.text
    return session["id"], "t-night", kit


async def test_the_console_names_an_application_that_called_through_a_bridge(
    browser: WebDriver, hub_url: str, tmp_path: Path
) -> None:
    session_id, task_id, kit = await bridged_by_an_application(hub_url)
    page = Page(browser, hub_url, tmp_path, asyncio.get_running_loop())

    def drive() -> None:
        browser.get(f"{hub_url}/console/")
        page.wait(lambda d: d.find_element(By.ID, "token"), "the sign-in form").send_keys(
            OPERATOR_TOKEN
        )
        browser.find_element(By.CSS_SELECTOR, "form.sign-in button").click()
        page.open(f"#/sessions/{session_id}")
        page.wait(lambda d: "application the night report" in page.text_of(".facts"), "caller")
        page.open(f"#/tasks/{task_id}?sessionId={session_id}")
        page.wait(lambda d: "application the night report" in page.text_of(".facts"), "caller")
        assert page.errors() == []

    try:
        await asyncio.to_thread(drive)
    finally:
        await kit.aclose()
