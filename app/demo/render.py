"""The demo's live transcript and its closing summary, with rich."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.tree import Tree

from app.demo.story import fewer_channels
from app.demo.summary import Summary

COLOURS = {
    "hub": "bright_black",
    "leader": "bold cyan",
    "factorial": "green",
    "root": "green",
    "researcher": "magenta",
    "writer": "yellow",
    "analyst": "blue",
    "charts": "red",
    "demo": "bold red",
}
SHOWN = (
    "group",
    "invited",
    "text",
    "result",
    "answer",
    "query",
    "name",
    "to",
    "declined",
    "reason",
    "after",
    "state",
    "events",
    "pushed",
    "code",
    "error",
    "url",
)


class Transcript:
    def __init__(self, console: Console) -> None:
        self.console = console
        self.started = time.time()

    def __call__(self, event: dict[str, Any]) -> None:
        who, what = str(event.get("who", "?")), str(event.get("what", ""))
        if what == "log":
            return  # an agent's own logging: not part of the story
        if what == "heading":  # a step of the plan begins (``app.demo.story``)
            self.console.rule(f"[bold]{event.get('title', '')}", align="left")
            self.console.print(f"[italic]{event.get('about', '')}", soft_wrap=False)
            return
        details = ", ".join(
            f"{key}={_short(event[key])}" for key in SHOWN if event.get(key) not in (None, "")
        )
        at = float(event.get("t", time.time())) - self.started
        colour = COLOURS.get(who, "white")
        line = f"[bright_black]{at:6.2f}s[/] [{colour}]{who:>10}[/] {what}"
        self.console.print(f"{line} [bright_black]{details}[/]" if details else line)


def _short(value: Any, limit: int = 70) -> str:
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_summary(console: Console, summary: Summary) -> None:
    tasks = Table(title="Tasks", show_lines=False)
    for column in ("leader", "partner", "task", "where", "final state", "note"):
        tasks.add_column(column)
    names = {g["id"]: g["name"] for g in summary.groups}
    partners = {t["id"]: t["partner"] for t in summary.tasks}
    for task in summary.tasks:
        where = names.get(task["group"], "point-to-point")
        after = [f"after {partners.get(d, d)}'s task" for d in task["dependencies"]]
        note = ", ".join(after) or _short(task["note"], 60)
        text = _short(task["text"], 40)
        tasks.add_row(task["leader"], task["partner"], text, where, task["state"], note)
    console.print(tasks)
    tree = Tree("[bold]Groups")
    nodes: dict[int, Tree] = {-1: tree}
    for depth, group in summary.tree():
        label = f"{group['name']} [bright_black]({group['state']}; {', '.join(group['members'])})"
        nodes[depth] = nodes[depth - 1].add(label)
    console.print(tree)
    console.print(
        f"Messages recorded: {summary.messages['group']} in groups, "
        f"{summary.messages['point-to-point']} point-to-point."
    )
    console.print(
        f"Communication channels used: [bold]{summary.channels}[/] agent pairs (nested teams "
        f"and direct calls) against [bold]{summary.flat_channels}[/] for one flat team of the "
        f"same {summary.involved} agents."
    )
    console.print()
    console.print(fewer_channels(summary))
