"""What happened, read back from the hub's own store once the team is done."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import orjson

from app.demo.record import read_record


@dataclass
class Summary:
    agents: dict[str, str]  # id -> name
    tasks: list[dict[str, Any]]  # in the order they were made; "text": what was asked
    groups: list[dict[str, Any]]
    messages: dict[str, int]
    channels: int
    involved: int  # agents that took part in a group or a call
    p2p_pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def flat_channels(self) -> int:
        """The agent pairs of one flat team of every agent that took part."""
        return self.involved * (self.involved - 1) // 2

    def tree(self) -> list[tuple[int, dict[str, Any]]]:
        """The groups depth-first, each with its depth."""
        children: dict[str | None, list[dict[str, Any]]] = {}
        for group in self.groups:
            children.setdefault(group["parent"], []).append(group)
        out: list[tuple[int, dict[str, Any]]] = []

        def walk(parent: str | None, depth: int) -> None:
            for group in children.get(parent, []):
                out.append((depth, group))
                walk(group["id"], depth + 1)

        walk(None, 0)
        return out


def _first_note(history: str | None) -> str:
    """The text of a task's first status: why it was handed back, what it waited for."""
    statuses = orjson.loads(history or "[]")
    items = (statuses[0].get("dataItems") or []) if statuses else []
    return next((i["text"] for i in items if i.get("type") == "text"), "")


def read_summary(db_file: Path) -> Summary:
    conn = sqlite3.connect(db_file)
    try:
        agents = dict(conn.execute("SELECT id, name FROM agents WHERE deleted_at IS NULL"))
        tasks = [
            {
                "id": t,
                "group": g,
                "leader": agents.get(lead),
                "partner": agents.get(p),
                "state": s,
                "dependencies": orjson.loads(deps or "[]"),
                "note": _first_note(history),
            }
            for t, g, lead, p, s, deps, history in conn.execute(
                "SELECT id, group_id, leader_id, partner_id, state, dependencies, status_history "
                "FROM tasks ORDER BY created_at"
            )
        ]
        members: dict[str, set[str]] = {}
        for group_id, agent_id in conn.execute(
            "SELECT group_id, agent_id FROM group_members"
            " WHERE state IN ('active', 'left', 'released')"  # released: when the group concluded
        ):
            members.setdefault(group_id, set()).add(agent_id)
        groups = [
            {
                "id": g,
                "name": name,
                "parent": parent,
                "state": state,
                "members": sorted(agents.get(a, a) for a in members.get(g, ())),
            }
            for g, name, parent, state in conn.execute(
                "SELECT id, name, parent_group_id, conversation_state FROM groups "
                "ORDER BY created_at"
            )
        ]
        in_groups, p2p = conn.execute(
            "SELECT count(*) FILTER (WHERE group_id IS NOT NULL), "
            "count(*) FILTER (WHERE group_id IS NULL) FROM messages"
        ).fetchone() or (0, 0)
        pairs: set[tuple[str, str]] = {
            (min(a, b), max(a, b))
            for a, b in conn.execute(
                "SELECT leader_id, partner_id FROM tasks WHERE group_id IS NULL"
            )
        }
    finally:
        conn.close()
    record = read_record(db_file)
    for task in tasks:
        task["note"] = record.named(task["note"])
        task["text"] = record.texts.get(task["id"], "")
    # a group of k members is one broadcast channel reaching k(k-1)/2 pairs; a flat team of
    # every agent that took part would be one group of all of them
    used = {pair for ids in members.values() for pair in combinations(sorted(ids), 2)} | pairs
    involved = {a for ids in members.values() for a in ids} | {a for p in pairs for a in p}
    return Summary(
        agents=agents,
        tasks=tasks,
        groups=groups,
        messages={"group": int(in_groups), "point-to-point": int(p2p)},
        channels=len(used),
        involved=len(involved),
        p2p_pairs=sorted((agents.get(a, a), agents.get(b, b)) for a, b in pairs),
    )
