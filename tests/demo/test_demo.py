"""``agenthub demo`` end to end: real processes on loopback, the outcome read from the store."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import sys
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console

from app.demo.render import Transcript, show_summary
from app.demo.runner import TOKEN, DemoResult, run_demo
from app.demo.story import SECTIONS
from app.demo.team.leader import STEPS
from app.demo.traces import read_spans
from tests.support.live import free_port

pytestmark = pytest.mark.slow


KEY_STEPS = [
    ("leader", "discovered a collaborator"),
    ("leader", "opened a session"),
    ("leader", "formed a group by invitation"),
    ("factorial", "accepted an invitation"),
    ("analyst", "applied to join a group"),
    ("leader", "reviewed and approved an application"),
    ("leader", "assigned a synchronous sub-task"),
    ("leader", "assigned asynchronous sub-tasks"),
    ("leader", "paused the group until both finish (pause-and-trigger)"),
    ("writer", "opened a sub-group"),
    ("charts", "reported a result"),
    ("writer", "concluded the sub-group"),
    ("leader", "the trigger fired; discussion resumes"),
    ("leader", "concluded the group"),
    ("leader", "called point-to-point by rpc"),
    ("leader", "called point-to-point by stream"),
    ("leader", "called point-to-point by notification"),
    ("leader", "formed a panel that speaks in turns"),
    ("leader", "gave the floor to the factorial agent (next speaker)"),
    ("leader", "the silent speaker's turn timed out; the floor is open"),
    ("root", "spoke"),
    ("leader", "the named speaker spoke in its turn"),
    ("leader", "assigned a task; only its assignee may speak now"),
    ("leader", "concluded the panel"),
    ("leader", "split a brief into sub-tasks (master-slave)"),
    ("leader", "fused the sub-tasks' results (master-slave)"),
    ("analyst", "handed a task back"),
    ("leader", "negotiated a task: handed back by one, taken by the next (proxy negotiation)"),
    ("leader", "sent the analyst a task with its trigger (task subscription)"),
    ("leader", "subscribed to a time: the researcher's task starts then (task subscription)"),
    ("leader", "the time came: started the researcher's task"),
    ("leader", "the analyst's trigger fired and it answered (task subscription)"),
    ("leader", "closed the session"),
]
PANEL_IN_ORDER = [
    "formed a panel that speaks in turns",
    "gave the floor to the factorial agent (next speaker)",
    "the silent speaker's turn timed out; the floor is open",
    "the named speaker spoke in its turn",
    "assigned a task; only its assignee may speak now",
    "concluded the panel",
]
# ids a reader should never see: an agent's AIC (1.2.156.3088.1.AGH.…), the hub's task, group
# and session ids
RAW_IDS = re.compile(r"\d+\.\d+\.\d+\.\d+\.\d+\.[A-Z]|\b(?:task|grp|ses|cmd)-[0-9a-f]{6,}")
PATTERNS_IN_ORDER = [
    "split a brief into sub-tasks (master-slave)",
    "fused the sub-tasks' results (master-slave)",
    "negotiated a task: handed back by one, taken by the next (proxy negotiation)",
    "sent the analyst a task with its trigger (task subscription)",
    "the time came: started the researcher's task",
    "the analyst's trigger fired and it answered (task subscription)",
]


async def test_the_demo_reaches_both_goals_with_nested_teams_methods_and_annex_b(
    tmp_path: Path,
) -> None:
    """With ``keep`` (``agenthub demo --keep``): the hub stays up, holding the story, until
    ``keep`` returns, and only then stops. With ``trace_to`` (``--trace``): every process's
    spans in OTLP JSON lines, the goal one trace across the hub and the agents."""
    events: list[dict[str, Any]] = []
    kept: dict[str, Any] = {}
    console = Console(file=io.StringIO(), width=200, color_system=None)
    transcript = Transcript(console)

    def narrate(event: dict[str, Any]) -> None:
        events.append(event)
        transcript(event)

    async def keep(result: DemoResult, hub_url: str) -> None:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx.AsyncClient(timeout=10) as http:
            kept["ready"] = (await http.get(f"{hub_url}/readyz")).status_code
            agents = await http.get(f"{hub_url}/v1/agents", headers=headers)
            kept["agents"] = len(agents.json()["items"])
        kept["url"] = hub_url

    port = free_port()
    result = await run_demo(narrate, timeout_seconds=120, keep=keep, trace_to=tmp_path, port=port)
    assert kept["ready"] == 200 and kept["agents"] >= 7
    assert kept["url"] == f"http://127.0.0.1:{port}"  # --port: the hub listened there
    spans = read_spans(tmp_path / "traces.jsonl")
    (goal,) = [s for s in spans if s["name"].startswith("demo: ")]
    in_goal = [s for s in spans if s["traceId"] == goal["traceId"]]
    assert {"hub", "leader", "researcher", "analyst"} <= {s["service"] for s in in_goal}
    assert all(len(s["spanId"]) == 16 and len(s["traceId"]) == 32 for s in spans)  # hex
    publishes = {s["spanId"] for s in in_goal if s["name"].startswith("publish ")}
    linked = {
        link["spanId"]
        for s in spans
        if s["name"].startswith("process ") and s["service"] != "leader"
        for link in s.get("links", [])
    }
    assert publishes & linked  # the other members' deliveries link to the goal's posts
    async with httpx.AsyncClient(timeout=2) as http:
        with pytest.raises(httpx.TransportError):  # stopped once keep returned
            await http.get(f"{kept['url']}/healthz")

    assert result.leader_exit == 0, [e for e in events if e.get("what") == "log"][-20:] + [
        (e.get("t"), e.get("who"), e.get("what")) for e in events[-25:]
    ]
    steps = [(e["who"], e["what"]) for e in events]
    for step in KEY_STEPS:
        assert step in steps, step
    in_order = [
        "opened a session",
        "reviewed and approved an application",
        "assigned asynchronous sub-tasks",
        "paused the group until both finish (pause-and-trigger)",
        "the trigger fired; discussion resumes",
        "called point-to-point by rpc",
        "called point-to-point by stream",
        "called point-to-point by notification",
        *PANEL_IN_ORDER,
        *PATTERNS_IN_ORDER,
        "closed the session",
    ]
    order = [steps.index(("leader", what)) for what in in_order]
    assert order == sorted(order), "the leader's steps happened out of order"
    assert steps.index(("writer", "opened a sub-group")) < steps.index(
        ("leader", "the trigger fired; discussion resumes")
    )
    closing = next(e for e in events if e["what"] == "closed the session")
    assert closing["sqrt"] == "602.3952"  # sqrt(9!) = sqrt(362880)
    assert "Chart:" in closing["report"] and "Analysis:" in closing["report"]

    summary = result.summary
    assert summary is not None
    names = {g["id"]: g["name"] for g in summary.groups}
    planned = Counter(
        (t["leader"], t["partner"], names.get(t["group"], "point-to-point"), t["state"])
        for t in summary.tasks
    )
    assert planned == Counter(
        {
            ("leader", "factorial", "math team", "completed"): 1,
            ("leader", "root", "math team", "completed"): 1,
            ("leader", "researcher", "report team", "completed"): 1,
            ("leader", "writer", "report team", "completed"): 1,
            ("leader", "analyst", "report team", "completed"): 1,
            ("writer", "charts", "charts sub-team", "completed"): 1,
            ("leader", "factorial", "review panel", "completed"): 1,
            # apply; Annex B: master-slave, a negotiation it hands back, a subscription
            ("leader", "analyst", "point-to-point", "completed"): 3,
            ("leader", "analyst", "point-to-point", "rejected"): 1,
            # rpc, stream, notification; Annex B: master-slave, negotiation, subscription
            ("leader", "researcher", "point-to-point", "completed"): 6,
        }
    )
    _the_hub_recorded_the_annex_b_patterns(summary.tasks, events)
    _the_panel_kept_its_turns_and_its_state(events)
    tree = [(depth, g["name"], g["state"], g["members"]) for depth, g in summary.tree()]
    assert tree == [
        (0, "math team", "conclusion", ["factorial", "leader", "root"]),
        (0, "report team", "conclusion", ["analyst", "leader", "researcher", "writer"]),
        (1, "charts sub-team", "conclusion", ["charts", "writer"]),
        (0, "review panel", "conclusion", ["factorial", "leader", "root"]),
    ]
    assert summary.messages["group"] > 0 and summary.messages["point-to-point"] > 0
    assert (summary.channels, summary.flat_channels) == (10, 21)  # 7 agents in one flat team
    show_summary(console, summary)
    assert isinstance(console.file, io.StringIO)
    _the_transcript_tells_its_story(console.file.getvalue(), events)


def _the_transcript_tells_its_story(text: str, events: list[dict[str, Any]]) -> None:
    """A heading and its sentence for each step of the plan, names where ids were, each
    step's lines in the order of the hub's record, and the closing paragraph's numbers."""
    headings = [e["step"] for e in events if e["what"] == "heading"]
    assert headings == ["prologue", *(step.__name__ for step in STEPS), "epilogue"]
    for step in headings:
        title, about = SECTIONS[step]
        assert title in text and about[:60] in " ".join(text.split()), step
    for title in ("Goal 1:", "Goal 2:", "Annex B.2, master-slave", "Annex B.3, proxy", "Annex B.4"):
        assert title in text
    assert RAW_IDS.search(text) is None, RAW_IDS.findall(text)
    assert "to=charts" in text  # the writer's sub-task went to an id before names
    sections: list[list[dict[str, Any]]] = []
    for event in events:
        if event["what"] == "heading":
            sections.append([])
        elif event["what"] != "log":
            sections[-1].append(event)
    for lines in sections:
        times = [e["t"] for e in lines]
        assert times == sorted(times), [(e["who"], e["what"]) for e in lines]
    math = [(e["who"], e["what"]) for e in sections[headings.index("math_goal")]]
    caused = [
        ("leader", "assigned a synchronous sub-task"),  # the command before its answers
        ("factorial", "accepted a group task"),
        ("factorial", "reported a result"),
        ("factorial", "saw its task completed"),
    ]
    assert [math.index(step) for step in caused] == sorted(math.index(step) for step in caused)
    root = math.index(("root", "accepted a group task"))
    assert math.index(("factorial", "reported a result")) < root  # its result, then the root
    assert "Why nested teams need fewer channels" in text
    assert "10 different pairs in all" in text and "7 x 6 / 2 = 21 pairs" in text


def _the_hub_recorded_the_annex_b_patterns(
    tasks: list[dict[str, Any]], events: list[dict[str, Any]]
) -> None:
    """The hub's store shows each pattern: a sub-task that depends on the one before it
    (master-slave, in turn), a task handed back by the analyst and the same task taken by the
    researcher (negotiation), a task that waited for its trigger (subscription)."""
    by_id = {t["id"]: t for t in tasks}
    dependent = [t for t in tasks if t["dependencies"]]
    assert [
        (t["partner"], [by_id[d]["partner"] for d in t["dependencies"]]) for t in dependent
    ] == [("analyst", ["researcher"])]
    handed_back = [t for t in tasks if t["state"] == "rejected"]
    assert [(t["partner"], t["note"]) for t in handed_back] == [
        ("analyst", "analyst cannot do market-data")
    ]
    negotiated = next(e for e in events if e["what"].startswith("negotiated a task"))
    assert negotiated["to"] == "researcher"
    assert negotiated["declined"] == ["analyst: analyst cannot do market-data"]
    waited = [t for t in tasks if t["note"].startswith("waiting for")]
    assert [(t["partner"], t["state"], t["note"]) for t in waited] == [
        (
            "analyst",
            "completed",
            "waiting for the researcher's task “EV sales, fresh”: product answer",
        )
    ]
    closing = next(e for e in events if e["what"] == "closed the session")
    assert "EV sales 2026" in closing["brief"] and "price war" in closing["brief"]
    assert closing["negotiated"] == "researcher"


def _the_panel_kept_its_turns_and_its_state(events: list[dict[str, Any]]) -> None:
    """The root agent, mentioned, answered three times: out of turn (refused), in its turn
    (spoken), and in sync-task-assignment without a task of its own (refused)."""
    root = [
        e for e in events if e["who"] == "root" and e["what"] in ("spoke", "was refused the floor")
    ]
    assert [(e["what"], e.get("code")) for e in root] == [
        ("was refused the floor", "not-your-turn"),
        ("spoke", None),
        ("was refused the floor", "not-allowed-in-state"),
    ]
    closing = next(e for e in events if e["what"] == "closed the session")
    assert closing["panel"] == "120"  # 5!


def _processes_with(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if marker.encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def test_ctrl_c_stops_every_process_the_demo_started(tmp_path: Path) -> None:
    marker = f"AGENTHUB_DEMO_TEST={uuid.uuid4().hex}"
    name, value = marker.split("=")
    port = free_port()
    demo = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app.cli",
        "demo",
        "--port",
        str(port),
        cwd=tmp_path,
        env={**os.environ, name: value, "COLUMNS": "200"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        # Ctrl-C reaches the demo as at a terminal, however this suite was started (a
        # command started with `&` from a script begins with SIGINT ignored, and so would
        # the demo, which then never hears it)
        preexec_fn=_interruptible,
    )
    assert demo.stdout is not None
    output = b""
    try:
        async with asyncio.timeout(60):
            while output.count(b"registered") < 3:  # the hub and some agents are up
                chunk = await demo.stdout.read(4096)
                assert chunk, output.decode(errors="replace")
                output += chunk
        assert len(_processes_with(marker)) >= 4  # the demo, the hub, agents
        assert f"url=http://127.0.0.1:{port}".encode() in output  # the hub is where asked
        demo.send_signal(signal.SIGINT)
        async with asyncio.timeout(30):
            output += await demo.stdout.read()
            code = await demo.wait()
            assert code == 130, output.decode(errors="replace")[-3000:]
    finally:
        if demo.returncode is None:
            demo.kill()
            await demo.wait()
    assert b"every process the demo started has been stopped" in output
    async with asyncio.timeout(30):  # a loaded machine reaps late; a process left is a hang
        while _processes_with(marker):
            await asyncio.sleep(0.1)


async def test_a_failing_process_is_shown_with_what_it_printed(tmp_path: Path) -> None:
    from app.demo.runner import DemoFailed, DemoResult, Team

    team = Team(tmp_path, lambda event: None, DemoResult())
    try:
        await team.spawn(
            "charts", "-c", "print('cannot draw: no ink', flush=True); raise SystemExit(3)"
        )
        with pytest.raises(DemoFailed) as failed:
            await team.until(lambda: False, 30, "the team to register")
    finally:
        await team.stop()
    assert failed.value.who == "charts"
    assert "charts exited while waiting for the team to register (exit code 3)" in str(failed.value)
    assert failed.value.output == ["cannot draw: no ink"]
