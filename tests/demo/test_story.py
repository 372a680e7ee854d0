"""The demo's storytelling without its processes: sections, names for ids, the hub's order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.demo.record import HubRecord
from app.demo.story import PROLOGUE, SECTIONS
from app.demo.team.leader import STEPS
from app.demo.teller import Storyteller

AIC = "1.2.156.3088.1.AGH.1.ZC2WBU6ZP.7B0KA5QIP.048T"
TASK = "task-ae42f7cc5a0348b0b1d2e3f4a5b6c7d8"


def test_every_step_of_the_plan_has_a_heading_and_a_sentence() -> None:
    for step in [PROLOGUE, *(s.__name__ for s in STEPS), "epilogue"]:
        title, about = SECTIONS[step]
        assert title and about.endswith("."), step
    annex_b = [SECTIONS[s][0] for s in ("master_slave", "proxy_negotiation", "task_subscription")]
    assert annex_b == [
        "Annex B.2, master-slave",
        "Annex B.3, proxy negotiation",
        "Annex B.4, task subscription",
    ]


def test_named_replaces_ids_and_leaves_addresses_and_figures() -> None:
    record = HubRecord(names={AIC: "charts", TASK: "the researcher's task “EV sales”"})
    text = f"to={AIC}; waiting for task {TASK}; 1.2.156.3088.1.AGH.1.OTHER; task-0123456789ab"
    assert record.named(text) == (
        "to=charts; waiting for the researcher's task “EV sales”; an agent; a task"
    )
    assert record.named("cmd-0123456789ab msg-0123456789ab") == "a command a message"
    untouched = "http://127.0.0.1:8765 grew 21% to 17.1M units (10.5 in 2022)"
    assert record.named(untouched) == untouched


def test_placed_is_the_first_moment_the_step_is_on_record() -> None:
    record = HubRecord(times={(TASK, "start"): 10.0, (TASK, "accepted"): 10.5})
    assert record.placed({"t": 12.0, "taskId": TASK, "record": "start"}) == 10.0
    assert record.placed({"t": 10.2, "taskId": TASK, "record": "accepted"}) == 10.2
    assert record.placed({"t": 12.0, "taskIds": [TASK], "record": "accepted"}) == 10.5
    assert record.placed({"t": 12.0, "taskId": TASK, "record": "complete"}) == 12.0  # not yet
    assert record.placed({"t": 12.0}) == 12.0


async def test_lines_are_told_under_their_step_in_order_not_as_they_arrived(
    tmp_path: Path,
) -> None:
    told: list[dict[str, Any]] = []
    teller = Storyteller(told.append, tmp_path / "no-store-yet.db", grace_seconds=0.01)
    arrivals = [
        {"t": 2.0, "who": "leader", "what": "opened a session"},
        {"t": 3.0, "who": "leader", "what": "heading", "step": "math_goal"},
        {"t": 3.2, "who": "factorial", "what": "accepted a group task"},
        {"t": 3.1, "who": "leader", "what": "assigned a synchronous sub-task", "to": AIC},
        {"t": 2.5, "who": "root", "what": "registered"},  # late, from before the heading
        {"t": 4.0, "who": "leader", "what": "heading", "step": "epilogue"},
    ]
    for event in arrivals:
        teller(event)
    await teller.finish()
    assert [(e["what"], e.get("step")) for e in told] == [
        ("heading", PROLOGUE),
        ("opened a session", None),
        ("registered", None),
        ("heading", "math_goal"),
        ("assigned a synchronous sub-task", None),
        ("accepted a group task", None),
        ("heading", "epilogue"),
    ]
    heading = next(e for e in told if e.get("step") == "math_goal")
    assert heading["title"] == SECTIONS["math_goal"][0]
    assigned = next(e for e in told if e["what"].startswith("assigned"))
    assert assigned["to"] == "an agent"  # an id the store does not know is still no id


async def test_a_story_cut_short_is_told_at_once(tmp_path: Path) -> None:
    told: list[dict[str, Any]] = []
    teller = Storyteller(told.append, tmp_path / "agenthub.db", grace_seconds=60)
    teller({"t": 2.0, "who": "leader", "what": "opened a session"})
    teller({"t": 3.0, "who": "leader", "what": "heading", "step": "math_goal"})
    teller({"t": 3.1, "who": "factorial", "what": "accepted a group task"})
    teller.finish_now()
    assert [e["what"] for e in told] == [
        "heading",
        "opened a session",
        "heading",
        "accepted a group task",
    ]
