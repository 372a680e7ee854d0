"""The demo's storyteller: the lines of the team's processes, told a section at a time in
the order of the hub's record, with names where the processes said ids.

Lines arrive from seven processes over seven pipes, each as soon as its process prints it;
an agent often says what it did after the agent it asked has already answered. So the lines
of a step are held until the leader begins the next step (it says ``heading``), plus a
moment for the lines still on their way; then the hub's record is read
(``app.demo.record``), the step's lines are placed by it, and told under the step's heading
(``app.demo.story``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.demo.record import HubRecord, read_record
from app.demo.story import PROLOGUE, SECTIONS

Narrate = Callable[[dict[str, Any]], None]
GRACE_SECONDS = 0.5  # for the last lines of a step, printed just as the next one began
ID_KEYS = frozenset(
    {"agentId", "groupId", "taskId", "taskIds", "sessionId", "parent", "floor"}
)  # kept as ids for a program that reads the events; the transcript does not show them


class Storyteller:
    """Stands in for ``narrate`` between the processes and the transcript. ``finish`` (or,
    when the demo is cut short, ``finish_now``) tells what is left."""

    def __init__(self, narrate: Narrate, db_file: Path, grace_seconds: float = GRACE_SECONDS):
        self.narrate = narrate
        self.db_file = db_file
        self.grace_seconds = grace_seconds
        self.lines: list[dict[str, Any]] = []
        self.sections: list[tuple[str, float]] = [(PROLOGUE, time.time())]
        self.told = 0
        self.closing: asyncio.Task[None] | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        what = event.get("what")
        if what == "log":  # an agent's own logging: passed on as it comes, for a failure
            self.narrate(event)
        elif what == "heading":
            self.sections.append((str(event.get("step")), float(event.get("t", time.time()))))
            self.closing = asyncio.create_task(self._close(len(self.sections) - 2, self.closing))
        else:
            self.lines.append(event)

    async def _close(self, index: int, previous: asyncio.Task[None] | None) -> None:
        await asyncio.sleep(self.grace_seconds)
        if previous is not None:
            await previous
        record = await asyncio.to_thread(read_record, self.db_file)
        self._tell(index, record, until=self.sections[index + 1][1])

    async def finish(self) -> None:
        """Tell every section still untold, the last with every line left."""
        if self.closing is not None:
            await self.closing
        record = await asyncio.to_thread(read_record, self.db_file)
        self._tell_rest(record)

    def finish_now(self) -> None:
        """Tell what is left at once, in the order the lines were said (no record read)."""
        if self.closing is not None and not self.closing.done():
            self.closing.cancel()
        self._tell_rest(HubRecord())

    def _tell_rest(self, record: HubRecord) -> None:
        while self.told < len(self.sections):
            last = self.told == len(self.sections) - 1
            self._tell(self.told, record, None if last else self.sections[self.told + 1][1])

    def _tell(self, index: int, record: HubRecord, until: float | None) -> None:
        if index != self.told:  # told already (finish_now after a cancelled close)
            return
        placed = sorted(
            ((record.placed(e), n, e) for n, e in enumerate(self.lines)), key=lambda p: p[:2]
        )
        now = [(at, e) for at, _, e in placed if until is None or at < until]
        self.lines = [e for at, _, e in placed if until is not None and at >= until]
        step, starts = self.sections[index]
        title, about = SECTIONS.get(step, (step, ""))
        self.told += 1
        heading = {"what": "heading", "step": step, "title": title, "about": about}
        self.narrate({"t": starts, "who": "demo", **heading})
        for at, event in now:
            self.narrate({**_named(event, record), "t": at})


def _named(event: dict[str, Any], record: HubRecord) -> dict[str, Any]:
    def name(key: str, value: Any) -> Any:
        if key in ID_KEYS:
            return value
        if isinstance(value, str):
            return record.named(value)
        if isinstance(value, list):
            return [record.named(v) if isinstance(v, str) else v for v in value]
        return value

    named = {key: name(key, value) for key, value in event.items()}
    if isinstance(event.get("groupId"), str):
        named["group"] = record.named(event["groupId"])
    return named
