"""The record engine's in-memory path for task records (``app.records.task_batch``) against
the full path it stands in for: every random batch of point-to-point records (any sender,
command, report, state, order, replay or variant, in p2p, group-mode and closed sessions)
gives the same outcomes, stored bodies and rows, tasks, inbox events, operator events (in
order) and tasks that may have ended, with the in-memory path as without it."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import col, select

from agenthub.protocol.messages import parse_message
from app.core.models import StoredMessage
from app.core.outbox import Outbox
from app.errors import HubError
from app.inbox.models import InboxEvent
from app.records import task_batch
from app.records.ingest import Ingest
from app.records.record import Record
from app.tasks.models import Task
from tests.support.hub import MakeAgent
from tests.support.parts import parts

T0 = datetime(2026, 1, 1, tzinfo=UTC)
STATES = [
    "accepted",
    "working",
    "awaiting-input",
    "awaiting-completion",
    "completed",
    "failed",
    "rejected",
    "canceled",
]
COMMANDS = ["start", "continue", "complete", "cancel", "get"]


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def gen(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Abstract records: who (L leader, P partner, O other), what, task, when."""
    out = []
    t = 0.0
    for i in range(n):
        task = f"t{rng.randrange(3)}"
        t += rng.choice([0.001, 0.001, 0.5, -0.3, -7])
        who = rng.choices(["L", "P", "O"], [5, 6, 1])[0]
        kind = "cmd" if who == "L" else rng.choice(["res", "res", "upd", "chunk", "cmd"])
        if who == "O" and rng.random() < 0.5:
            kind = rng.choice(["res", "cmd"])
        if rng.random() < 0.07:
            kind = "chat"
        rec: dict[str, Any] = {
            "who": who,
            "kind": kind,
            "task": task,
            "t": t,
            "id": f"m{i}",
            "notask": rng.random() < 0.5,
        }
        if kind == "cmd":
            rec["command"] = rng.choices(COMMANDS, [4, 2, 2, 2, 1])[0]
            rec["partner"] = rng.choices(["P", "O", "L", None, "M"], [8, 1, 1, 1, 1])[0]
        else:
            rec["state"] = rng.choice(STATES)
        if rng.random() < 0.08 and out:  # same id again: same content or other content
            prev = rng.choice(out)
            if rng.random() < 0.5:
                rec = dict(prev)
            else:
                rec["id"] = prev["id"]
                rec["who"] = prev["who"]
                if rec["who"] == "L":
                    rec["kind"] = "cmd"
                    rec.setdefault("command", "get")
                    rec.setdefault("partner", "P")
        out.append(rec)
    return out


def wire(rec: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    sent = iso(T0 + timedelta(seconds=rec["t"]))
    sender = ids[rec["who"]]
    base = {"id": rec["id"], "sentAt": sent, "senderId": sender, "taskId": rec["task"]}
    if rec["kind"] == "cmd":
        body = {**base, "type": "task-command", "senderRole": "leader", "command": rec["command"]}
        if rec["command"] == "start":
            if rec["partner"] == "M":
                body["mentions"] = [ids["P"]]
            elif rec["partner"] is not None:
                body["partnerId"] = ids[rec["partner"]]
        return body
    if rec["kind"] == "chat":
        b = {
            **base,
            "type": "message",
            "senderRole": "leader" if rec["who"] == "L" else "partner",
            "dataItems": [{"type": "text", "text": "hi"}],
        }
        if rec.get("notask"):
            b.pop("taskId")
        return b
    if rec["kind"] == "chunk":
        return {
            **base,
            "type": "product-chunk",
            "senderRole": "partner",
            "append": True,
            "lastChunk": False,
            "product": {"id": "p", "dataItems": [{"type": "text", "text": rec["id"]}]},
        }
    status = {"state": rec["state"], "stateChangedAt": sent}
    kind = "task-result" if rec["kind"] == "res" else "task-status-update"
    return {**base, "type": kind, "senderRole": "partner", "status": status}


def norm(value: Any, ids: dict[str, str], session_id: str) -> Any:
    text = json.dumps(value, sort_keys=True, default=str)
    for name, agent in ids.items():
        text = text.replace(agent, name)
    import re

    text = re.sub(r"~[0-9a-f]{16}", "~V", text)
    return json.loads(text.replace(session_id, "S"))


async def run(
    make_agent: MakeAgent,
    hub: Any,
    recs: list[dict[str, Any]],
    fast: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, Any]:
    agents = {k: await make_agent(k.lower()) for k in ("L", "P", "O")}
    ids = {k: str(a.agent_id) for k, a in agents.items()}
    variant = recs[0].get("variant", 0) if recs else 0
    receivers = [{"agentId": ids["P"], "mode": "p2p"}]
    if variant == 1:
        receivers.append({"agentId": ids["O"], "mode": "group"})
    elif variant == 2:
        receivers += [{"agentId": ids["O"], "mode": "group"}, {"agentId": ids["O"], "mode": "p2p"}]
    else:
        receivers.append({"agentId": ids["O"], "mode": "p2p"})
    resp = await agents["L"].request(
        "POST", "/v1/sessions", json={"title": "x", "goal": "y", "receivers": receivers}
    )
    assert resp.status_code == 201, resp.text
    session_id = resp.json()["id"]
    if variant == 3:
        r = await agents["L"].request(
            "PATCH", f"/v1/sessions/{session_id}", json={"state": "closed"}
        )
        assert r.status_code == 200, r.text
    staged: list[Any] = []  # what the batch's commit publishes, in order
    real_publish = Outbox.publish

    def spy(outbox: Outbox, broker: Any) -> None:
        for channel, delivery in outbox.items:
            frame = delivery.frame if hasattr(delivery, "frame") else repr(delivery)
            staged.append((channel, frame))
        real_publish(outbox, broker)

    ended: list[Any] = []
    real_fire = Ingest._fire_ready

    async def fire(self: Ingest, tasks: set) -> None:
        ended.append(sorted(tasks))
        await real_fire(self, tasks)

    monkeypatch.setattr(Outbox, "publish", spy)
    monkeypatch.setattr(Ingest, "_fire_ready", fire)
    if not fast:

        async def never(self: Any, record: Any) -> None:
            return None

        monkeypatch.setattr(task_batch.TaskBatch, "take", never)
    records = []
    for rec in recs:
        agent = agents[rec["who"]]
        records.append(
            Record(
                ids[rec["who"]],
                agent.key.thumbprint,
                parse_message(wire(rec, ids)),
                session_id=session_id,
            )
        )
    outcomes = await parts(hub).ingest.many(records)
    monkeypatch.undo()
    got: dict[str, Any] = {"status": [], "bodies": []}
    for o in outcomes:
        if isinstance(o, HubError):
            got["status"].append((o.status, type(o).__name__))
        else:
            got["status"].append(o[1])
            b = dict(o[0])
            b.pop("receivedAt", None)
            got["bodies"].append(b)
    async with parts(hub).session_factory() as db:
        tasks = (await db.exec(select(Task).where(col(Task.session_id) == session_id))).all()
        got["tasks"] = sorted(
            [
                {k: v for k, v in t.model_dump().items() if k not in ("created_at", "updated_at")}
                for t in tasks
            ],
            key=lambda t: t["id"],
        )
        rows = (
            await db.exec(
                select(StoredMessage)
                .where(col(StoredMessage.session_id) == session_id)
                .order_by(col(StoredMessage.pk))
            )
        ).all()
        got["rows"] = [(r.message_id, r.sender_id, r.task_id, r.type, r.waiting) for r in rows]
        inbox = (
            await db.exec(
                select(InboxEvent)
                .where(col(InboxEvent.agent_id).in_(list(ids.values())))
                .order_by(col(InboxEvent.agent_id), col(InboxEvent.seq))
            )
        ).all()
        got["inbox"] = [(i.agent_id, i.seq, i.kind, i.data) for i in inbox]
    ops = []
    for channel, frame in staged:
        if isinstance(frame, bytes):
            frame = frame.decode()
        if "receivedAt" in frame or "received" in frame:
            pass
        ops.append((channel, frame))
    got["staged"] = [(c, f) for c, f in ops if c == "operator" or c.startswith("inbox")]
    got["ended"] = ended
    return norm(got, ids, session_id)


@pytest.mark.parametrize("seed", range(40))
async def test_fast_equals_full(
    make_agent: MakeAgent, hub: Any, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    recs = gen(rng, rng.randrange(3, 40))
    if recs:
        recs[0] = {**recs[0], "variant": seed % 4}
    fast = await run(make_agent, hub, recs, True, monkeypatch)
    full = await run(make_agent, hub, recs, False, monkeypatch)
    for d in (fast, full):
        d["inbox"] = sorted(d["inbox"], key=lambda x: (x[0], x[1]))
        by: dict[str, list] = {}
        for c, f in d["staged"]:
            by.setdefault(c, []).append(f)
        d["staged"] = by
    assert fast["staged"] == full["staged"]  # every event, in the same order on each channel
    for key in ("status", "rows", "tasks", "inbox", "ended", "bodies"):
        assert fast[key] == full[key], (
            key,
            json.dumps(recs),
        )
