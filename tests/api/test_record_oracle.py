"""The record engine against a reference written here from the AIP tables
(``agenthub.protocol.tasks``) and the group guide's posting and speaking rules.

What it sends, seeded and random: in a session, point-to-point task messages of every kind
(commands ``start``, ``continue``, ``complete``, ``cancel``, ``get``; results and status
updates in every state; product chunks) and plain talk; the leader's relays of its
partner's answers, unsigned (its report) or signed by the partner (the partner's own
record, which the partner may also post), some carrying their task's path in
``statusHistory``; the same in another session of the same two, whose task ids are other
tasks; in a group of the first session under the ``turns`` speaking policy, task messages
and talk from its owner and members (one of them muted), some naming the next speakers
(others, itself, an outsider) or mentioning members. Among them: moves from the wrong
side, commands sent further back than clocks may drift, a task's messages posted where it
does not live (``task-elsewhere``), a second start naming another partner
(``task-exists``), posts by an outsider, everything sent again. Delivered in any order,
one a request, in ``messages:batch`` runs, or in runs of every kind handed to the hub's
writer at once (decided in one transaction, so a floor or a mute moved early in the run
binds the rest of it).

What it compares: each record's answer status (and the problem's code where the reference
names one; the stored body a repeat answers), the rows stored (in order), each task's
final state, status history (states and times) and products, the group's stream (its
posts with their stored bodies and its ``floor`` events, by contiguous ``seq``) and the
inboxes (each command that reached its task's partner, in order; each invitation).

The reference is deliberately plain. A task: its accepted messages in sending order
(``sentAt``, sender, id), each applied when the tables allow it from the task's state,
the ones that do not wait and go in once a move allows them; a move no reachable state
allows is refused (a report) or kept and ignored (a command). The group, in arrival order:
the named speakers hold the floor, only they and the owner post (a report passes the floor
if it names no one); a holder's post opens the floor or passes it to whom it names, the
owner breaks in without taking it; the muted member posts once per post that mentions it.
A failure names its seed:
``pytest 'tests/api/test_record_oracle.py::test_engine_matches_reference[SEED]'``; raise
``SEEDS`` to search further (400 seeds take about 7 minutes on two workers)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import col, select

from agenthub import HubClient
from agenthub.protocol.messages import TaskState, parse_message
from agenthub.protocol.sessions import RelayedAnswer
from agenthub.protocol.tasks import FINAL_STATES, LEADER_MOVES, PARTNER_MOVES
from agenthub.signing import sign_answer
from app.core.models import StoredMessage
from app.errors import HubError
from app.groups.models import GroupEvent
from app.inbox.models import InboxEvent
from app.records.record import Record
from app.tasks.models import Task
from tests.support.groups import create_group
from tests.support.hub import MakeAgent
from tests.support.parts import parts

T0 = datetime(2026, 1, 1, tzinfo=UTC)
STATES = [s.value for s in TaskState]
COMMANDS = ["start", "continue", "complete", "cancel", "get"]
SEEDS = 16
SKEW = 5.0  # how far apart a leader's and a partner's clocks may be (AIP peers' moves)

# --- the reference fold, from the tables alone -------------------------------------------

FINAL = {s.value for s in FINAL_STATES}
PARTNER: dict[str | None, set[str]] = {
    (k.value if k else None): {s.value for s in v} for k, v in PARTNER_MOVES.items()
}
LEADER: dict[tuple[str, str], str] = {
    (a.value, c.value): b.value for (a, c), b in LEADER_MOVES.items()
}


def _reach() -> dict[str | None, set[str]]:
    nexts: dict[str | None, set[str]] = {}
    for origin, targets in PARTNER.items():
        nexts.setdefault(origin, set()).update(targets)
    for (origin, _), target in LEADER.items():
        nexts.setdefault(origin, set()).add(target)
    out: dict[str | None, set[str]] = {}
    for origin in [None, *STATES]:
        seen: set[str] = set()
        todo = list(nexts.get(origin, ()))
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.add(s)
                todo.extend(nexts.get(s, ()))
        out[origin] = seen
    return out


REACH = _reach()


def partner_may(cur: str | None, new: str) -> bool:
    """The partner's own moves, a repeat of a live state, a start that failed, and its
    answer to a leader command (the state the command leads to)."""
    if cur is not None and new == cur:
        return cur not in FINAL
    if new in PARTNER.get(cur, set()) or (cur is None and new == "failed"):
        return True
    return any(origin == cur and target == new for (origin, _), target in LEADER.items())


@dataclass
class Rec:
    n: int
    who: str  # L leader (the group's owner), P p2p partner, Q and R group members, X outsider
    where: str  # s session, g its group, a relayed answer (by L, of P's result), o another
    # session of L with P, where the same task ids are other tasks (``task`` ends ``@o``)
    kind: str  # cmd, res, upd, chunk, chat (about a task, with ``task``, or not)
    t: float
    task: str | None = None
    command: str = ""
    state: str = ""
    partner: str = ""
    path: list[tuple[str, float]] = field(default_factory=list)  # a result's statusHistory
    signed: bool = False  # a relayed answer with its partner's signature
    nxt: list[str] = field(default_factory=list)  # a group post's nextSpeaker
    mentions: list[str] = field(default_factory=list)  # ["all"]: every member

    @property
    def id(self) -> str:
        return f"m{self.n}"

    @property
    def stored_id(self) -> str:
        """An unsigned relay is its leader's record of the answer; a signed one, its
        partner's own (the same record as the partner's post of that answer)."""
        return f"relayed:{self.id}" if self.where == "a" and not self.signed else self.id

    def key(self, ids: dict[str, str]) -> tuple[float, str, str]:
        return (self.t, ids[self.sender], self.stored_id)

    @property
    def sender(self) -> str:
        return "P" if self.where == "a" else self.who

    @property
    def report(self) -> bool:
        return self.kind in ("res", "upd", "chunk")

    @property
    def status(self) -> tuple[str, float]:
        return (self.state, self.t)


@dataclass
class Facts:
    state: str | None = None
    history: list[tuple[str, float]] = field(default_factory=list)
    commanded: bool = False
    products: list[str] = field(default_factory=list)  # the chunks' texts, as appended


def report(f: Facts, status: tuple[str, float]) -> None:
    """The partner's status, in; where the leader's command made the same live move, the
    partner's record of it takes the command's place (one move, as the partner holds it)."""
    if f.commanded and status[0] == f.state and f.state not in FINAL:
        f.history = [*f.history[:-1], status]
    else:
        f.history = [*f.history, status]
    f.state, f.commanded = status[0], False


def could_later(cur: str | None, r: Rec) -> bool:
    reach = REACH[cur]
    if r.kind == "cmd":
        return any((s, r.command) in LEADER for s in reach)
    if r.kind == "chunk":
        return any(s not in FINAL for s in reach)
    return any(partner_may(s, r.state) for s in reach)


def step(f: Facts, r: Rec, partner: str) -> str:
    cur = f.state
    if (r.kind == "cmd" and r.who != "L") or (r.kind != "cmd" and r.sender != partner):
        return "never"  # commands are the leader's, reports the partner's
    if r.kind == "cmd":
        if r.command in ("start", "get"):
            return "applied"
        target = LEADER.get((cur, r.command)) if cur else None
        if target:
            f.state, f.history, f.commanded = target, [*f.history, (target, r.t)], True
            return "applied"
        if cur in FINAL and any(c == r.command and to == cur for (_, c), to in LEADER.items()):
            return "same"
        return "not-yet" if could_later(cur, r) else "ignored"
    if r.kind == "chunk":
        if cur is None or cur in FINAL:
            return "not-yet" if could_later(cur, r) else "never"
        f.products.append(r.id)
        return "applied"
    if r.status in f.history:
        return "same"
    for earlier in r.path:  # a result's path: the moves the task has not seen, first
        if earlier != r.status and earlier not in f.history and partner_may(f.state, earlier[0]):
            report(f, earlier)
    cur = f.state
    if partner_may(cur, r.state):
        report(f, r.status)
        return "applied"
    if cur in FINAL and r.state == cur:
        return "same"
    return "not-yet" if could_later(cur, r) else "never"


def fold(msgs: list[Rec], ids: dict[str, str], partner: str) -> tuple[Facts, dict[int, str]]:
    f = Facts()
    out: dict[int, str] = {}
    waiting: list[Rec] = []
    for r in sorted(msgs, key=lambda m: m.key(ids)):
        o = out[r.n] = step(f, r, partner)
        if o == "not-yet":
            waiting.append(r)
        progress, last = o == "applied", r
        while progress:  # what waits goes in, in sending order, once a move allows it
            progress = False
            for w in list(waiting):
                if w.kind == "cmd" and last.t - w.t > SKEW:  # sent while not allowed
                    out[w.n] = "ignored"
                    waiting.remove(w)
                    continue
                ow = step(f, w, partner)
                if ow == "not-yet":
                    continue
                out[w.n] = ow
                waiting.remove(w)
                if ow == "applied":
                    progress, last = True, w
                    break
    for w in waiting:
        if not could_later(f.state, w):
            out[w.n] = "ignored" if w.kind == "cmd" else "never"
    return f, out


MEMBERS = ("L", "Q", "R", "W")  # the group's active members; L owns it, W only listens
MUTED = "R"  # who may post once per post that mentions it
Answer = tuple[int, str | None]  # a status, and the refusal's problem code if it names one


@dataclass
class Reference:
    """What the hub must answer and hold, record by record, in the order they arrive."""

    ids: dict[str, str]
    stored: dict[int, dict[str, Any]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # stored ids, in the order stored
    tasks: dict[str, list[Rec]] = field(default_factory=dict)
    partner: dict[str, str] = field(default_factory=dict)  # a task, once it exists: its partner
    place: dict[str, str] = field(default_factory=dict)  # and where it lives (s or g)
    floor: list[str] | None = None  # who holds the group's floor (None: it is open)
    grants: int = 0  # the posts the muted member's mentions let it make
    frames: list[tuple[Any, ...]] = field(default_factory=list)  # the group's, after setup
    inbox: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in "PQR"})

    def expect(self, r: Rec) -> Answer:
        if r.who == "X":
            return 404, None  # a session or group the outsider may not see
        if r.n in self.stored:
            return 200, None
        floor: tuple[list[str] | None, str] | None = None
        if r.where == "g":
            refused, floor = self.flow(r)
            if refused:
                return refused
        here = "g" if r.where == "g" else "s"
        if r.task is not None and self.place.get(r.task, here) != here:
            return 409, "task-elsewhere"  # posted about where it does not live
        status = 201
        if r.kind != "chat":
            status, code = self.task_message(r, here)
            if status >= 400:
                return status, code
        self.order.append(r.stored_id)
        if r.where == "g":
            if r.who == MUTED:
                self.grants -= 1
            elif MUTED in r.mentions or "all" in r.mentions:
                self.grants += 1
            self.frames.append(("message", r.stored_id))
            if floor is not None:
                self.floor = floor[0]
                self.frames.append(("floor", floor[0], floor[1], r.who))
        moves = r.kind == "cmd" and r.command != "get"
        if moves and r.task in self.partner:  # a command reaches its partner's inbox
            self.inbox[self.partner[r.task]].append(r.id)
        return status, None

    def flow(self, r: Rec) -> tuple[Answer | None, tuple[list[str] | None, str] | None]:
        """The ``turns`` policy (docs/guide/groups.md): the named speakers and the owner
        post, a report passes the floor naming no one; a holder who posts opens it, or
        passes it to whom it names; the owner breaks in without taking it. And the muted
        member posts once per post that mentions it."""
        holders = self.floor
        holds = holders is None or r.who in holders or r.who == "L"
        if not holds and (not r.report or r.nxt):
            return (409, "not-your-turn"), None
        if r.who in r.nxt:
            return (422, "self-named-speaker"), None
        if r.who == MUTED and self.grants == 0:
            return (403, "muted"), None
        if r.nxt:
            if any(n not in MEMBERS for n in r.nxt):
                return (422, "speaker-not-member"), None
            return None, (list(dict.fromkeys(r.nxt)), "named")
        if holders is not None and r.who in holders:
            return None, (None, "spoke")
        return None, None

    def task_message(self, r: Rec, here: str) -> Answer:
        """A task message's answer (it waits for its task, moves it, or is refused)."""
        assert r.task is not None
        start = r.kind == "cmd" and r.command == "start"
        partner = self.partner.get(r.task)
        if start and partner is not None and r.partner != partner:
            return 409, "task-exists"  # another start made it, with another partner
        if partner is None and start:
            partner = r.partner
        # a point-to-point partner's report creates its task too (led by the session's
        # leader); in a group only the start does, and a report waits for it
        if partner is None and r.report and r.sender != "L" and here == "s":
            partner = r.sender
        msgs = [*self.tasks.get(r.task, []), r]
        status = 202  # waits for its task
        if partner is not None:
            _, out = fold(msgs, self.ids, partner)
            o = out[r.n]
            if o == "never":
                return 409, None
            status = 202 if o == "not-yet" else 201
            self.partner[r.task] = partner
            self.place.setdefault(r.task, here)
        self.tasks[r.task] = msgs
        return status, None

    def task_facts(self) -> dict[str, Any]:
        got = {}
        for task, partner in sorted(self.partner.items()):
            f, _ = fold(self.tasks[task], self.ids, partner)
            got[task] = (f.state, [(s, iso(t)) for s, t in f.history], f.products)
        return got


# --- random records ----------------------------------------------------------------------


def naming(rng: random.Random, who: str) -> list[str]:
    """A group post's nextSpeaker, now and then: other members, rarely itself or an
    outsider (refused), rarely the member who never speaks (the owner must name again)."""
    roll = rng.random()
    if roll < 0.7:
        return []
    if roll < 0.73:
        return [who]
    if roll < 0.75:
        return ["X"]
    others = [m for m in ("L", "Q", "R", "W") if m != who]
    weights = [0.3 if m == "W" else 1.0 for m in others]
    first = rng.choices(others, weights)[0]
    rest = [m for m in others if m != first]
    return [first, rng.choice(rest)] if rng.random() < 0.25 else [first]


def gen(rng: random.Random, n: int) -> list[Rec]:
    """Records in sending order (0.1 s apart, now and then further apart than clocks may
    be): per task mostly a legal walk of the tables, with stray commands and reports among
    them, some from the wrong side, some about a task posted where it does not live, a
    start naming another partner; group posts naming the next speakers."""
    tasks = {"s0": "P", "s1": "P", "g0": "Q", "g1": "Q", "s0@o": "P"}
    state: dict[str, str | None] = dict.fromkeys(tasks)
    started: set[str] = set()
    walk: dict[str, list[tuple[str, float]]] = {task: [] for task in tasks}
    out: list[Rec] = []
    t = 0.0

    def add(r: Rec) -> None:
        if r.where == "g":
            r.nxt = naming(rng, r.who)
        out.append(r)

    for i in range(n):
        t += 0.1 if rng.random() < 0.93 else 6.0
        task = rng.choice(list(tasks))
        partner = tasks[task]
        where = "g" if partner == "Q" else "o" if task.endswith("@o") else "s"
        roll = rng.random() - (0.15 if where == "g" else 0.0)  # in the group, more talk
        if roll < 0.1:
            who = rng.choice(["L", "Q", "R", "R"] if where == "g" else ["L", "P"])
            chat = Rec(i, who, where, "chat", t)
            if where == "g" and rng.random() < 0.5:
                chat.mentions = rng.choice([["all"], ["R"], ["R"], ["Q"], ["Q", "R"]])
            add(chat)
            continue
        if roll < 0.13:
            out.append(Rec(i, "X", where, "chat", t))
            continue
        if roll < 0.17 and where != "o":  # about the task, where it does not live
            kind, command = rng.choice([("cmd", "get"), ("chat", "")])
            add(Rec(i, "L", "s" if where == "g" else "g", kind, t, task, command=command))
            continue
        if roll < 0.19 and where == "g" and task in started:  # a start with another partner
            add(Rec(i, "L", "g", "cmd", t, task, command="start", partner="R"))
            continue
        cur = state[task]
        legal = rng.random() < 0.85
        if task not in started and (legal or rng.random() < 0.5):
            started.add(task)
            add(Rec(i, "L", where, "cmd", t, task, command="start", partner=partner))
            continue
        leader_moves = [c for (s, c) in LEADER if s == cur] if cur else []
        partner_moves = sorted(PARTNER.get(cur, set()))
        if legal and (leader_moves or partner_moves):
            if leader_moves and (not partner_moves or rng.random() < 0.4):
                weights = [1 if m == "cancel" else 3 for m in leader_moves]
                command = rng.choices(leader_moves, weights)[0]
                state[task] = LEADER[(cur, command)] if cur else None
                add(Rec(i, "L", where, "cmd", t, task, command=command))
                continue
            weights = [1 if m in FINAL else 4 for m in partner_moves]
            new = rng.choices(partner_moves, weights)[0]
            state[task] = new
            kind = rng.choice(["res", "upd"])
            who, how = partner, where
            if where == "s" and kind == "res" and rng.random() < 0.6:
                who, how = "L", "a"  # its leader relays the partner's answer
            signed = how == "a" and rng.random() < 0.6
            path = [*walk[task], (new, t)] if how == "a" and rng.random() < 0.8 else []
            walk[task].append((new, t))
            if partner == "P" and how != "a" and rng.random() < 0.35:
                continue  # recorded by no one: only a later answer's path tells it
            add(Rec(i, who, how, kind, t, task, state=new, path=path, signed=signed))
            if signed and rng.random() < 0.5:  # the partner records it too: the same record
                out.append(Rec(i, "P", "s", kind, t, task, state=new, path=path))
            elif how == "a" and not path and rng.random() < 0.5:  # its own record of the move
                out.append(Rec(n + i, "P", "s", kind, t, task, state=new))
            continue
        kind = rng.choice(["cmd", "res", "upd", "chunk", "wrong"])
        if kind == "wrong":  # the partner commands, or the leader reports
            if rng.random() < 0.5:
                add(Rec(i, partner, where, "cmd", t, task, command="cancel"))
            else:
                add(Rec(i, "L", where, "upd", t, task, state=rng.choice(STATES)))
        elif kind == "cmd":
            command = rng.choice(COMMANDS[1:])
            add(Rec(i, "L", where, "cmd", t, task, command=command))
        else:
            add(Rec(i, partner, where, kind, t, task, state=rng.choice(STATES)))
    return out


def iso(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


def wire(r: Rec, ids: dict[str, str]) -> dict[str, Any]:
    sender = ids[r.sender]
    base: dict[str, Any] = {"id": r.id, "sentAt": iso(r.t), "senderId": sender}
    if r.task:
        base["taskId"] = r.task.removesuffix("@o")
    if r.nxt:
        base["nextSpeaker"] = [ids[k] for k in r.nxt]
    if r.mentions:
        base["mentions"] = "all" if r.mentions == ["all"] else [ids[k] for k in r.mentions]
    role = "leader" if r.who == "L" and r.where != "a" else "partner"
    if r.kind == "chat":
        text = [{"type": "text", "text": r.id}]
        return {**base, "type": "message", "senderRole": role, "dataItems": text}
    if r.kind == "cmd":
        body = {**base, "type": "task-command", "senderRole": "leader", "command": r.command}
        if r.command == "start":
            body["partnerId"] = ids[r.partner]
        return body
    if r.kind == "chunk":
        product = {"id": "p", "dataItems": [{"type": "text", "text": r.id}]}
        extra = {"append": True, "lastChunk": False, "product": product}
        return {**base, "type": "product-chunk", "senderRole": "partner", **extra}
    kind = "task-result" if r.kind == "res" else "task-status-update"
    status = {"state": r.state, "stateChangedAt": iso(r.t)}
    body = {**base, "type": kind, "senderRole": "partner", "status": status}
    if r.path:
        body["statusHistory"] = [{"state": s, "stateChangedAt": iso(t)} for s, t in r.path]
    return body


def relayed(r: Rec, agents: dict[str, HubClient], ids: dict[str, str]) -> dict[str, Any]:
    """The body of ``POST …/answers``: the partner's JSON-RPC answer as its leader got it,
    with the partner's signature over it when ``r.signed``."""
    answer = json.dumps({"jsonrpc": "2.0", "id": 1, "result": wire(r, ids)})
    body = {"partnerId": ids["P"], "answer": answer}
    if r.signed:
        nonce = f"n-{r.n}"
        body["nonce"], body["signature"] = (
            nonce,
            sign_answer(
                agents["P"].key,
                callee_id=ids["P"],
                caller_id=ids["L"],
                nonce=nonce,
                signed_bytes=answer.encode(),
            ),
        )
    return body


def deliveries(rng: random.Random, recs: list[Rec]) -> list[tuple[str, list[Rec]]]:
    """The records sent again here and there, in any order (shuffled, or in order with
    neighbours swapped), cut into requests: one record each (``one``), a run of one
    sender's point-to-point records in one ``messages:batch`` (``batch``), or a run of
    records of every kind and sender handed to the hub's writer at once, so that they are
    decided in one transaction (``writer``)."""
    sent = list(recs)
    for _ in range(rng.randrange(0, 1 + len(recs) // 5)):
        sent.insert(rng.randrange(len(sent) + 1), rng.choice(recs))
    if rng.random() < 0.5:
        rng.shuffle(sent)
    else:
        for _ in range(len(sent) // 3):
            i = rng.randrange(max(1, len(sent) - 1))
            sent[i : i + 2] = sent[i : i + 2][::-1]
    out: list[tuple[str, list[Rec]]] = []
    i = 0
    while i < len(sent):
        r = sent[i]
        roll = rng.random()
        if roll < 0.25:
            size = rng.randrange(2, 9)
            out.append(("writer", sent[i : i + size]))
            i += size
            continue
        run = [r]
        if r.where in ("s", "o") and r.who in ("L", "P") and roll < 0.6:
            size = rng.randrange(2, 8)
            while i + len(run) < len(sent) and len(run) < size:
                nxt = sent[i + len(run)]
                if (nxt.where, nxt.who) != (r.where, r.who):
                    break
                run.append(nxt)
        out.append(("batch" if len(run) > 1 else "one", run))
        i += len(run)
    return out


# --- the test ----------------------------------------------------------------------------


@dataclass
class Place:
    """The hub the records go to: its agents, the sessions (``s`` and ``o``) and the
    group."""

    hub: Any
    agents: dict[str, HubClient]
    ids: dict[str, str]
    sessions: dict[str, str]
    group: str

    @property
    def session(self) -> str:
        return self.sessions["s"]

    def record(self, r: Rec) -> Record:
        """``r`` as its route hands it to the writer."""
        agent = self.agents["L" if r.where == "a" else r.who]
        thumbprint = agent.key.thumbprint
        if r.where == "a":
            answer = RelayedAnswer.model_validate(relayed(r, self.agents, self.ids))
            return Record(self.ids["L"], thumbprint, None, session_id=self.session, answer=answer)
        message = parse_message(wire(r, self.ids))
        if r.where == "g":
            return Record(self.ids[r.who], thumbprint, message, group_id=self.group)
        return Record(self.ids[r.who], thumbprint, message, session_id=self.sessions[r.where])


def problem_code(body: dict[str, Any]) -> str:
    return str(body["type"]).rsplit("/", 1)[-1]


async def send(at: Place, how: str, run: list[Rec]) -> list[tuple[int, Any]]:
    """Each record's status, with its stored body (2xx) or its problem's code."""
    r = run[0]
    if how == "writer":
        outcomes = await parts(at.hub).ingest.many([at.record(x) for x in run])
        return [(o.status, o.code) if isinstance(o, HubError) else (o[1], o[0]) for o in outcomes]
    if how == "batch":
        items = [wire(x, at.ids) for x in run]
        resp = await at.agents[r.who].request(
            "POST", f"/v1/sessions/{at.sessions[r.where]}/messages:batch", json={"items": items}
        )
        assert resp.status_code == 200, resp.text
        return [
            (i["status"], i["message"] if "message" in i else problem_code(i["problem"]))
            for i in resp.json()["items"]
        ]
    if r.where == "a":
        body = relayed(r, at.agents, at.ids)
        resp = await at.agents["L"].request("POST", f"/v1/sessions/{at.session}/answers", json=body)
    else:
        path = f"groups/{at.group}" if r.where == "g" else f"sessions/{at.sessions[r.where]}"
        resp = await at.agents[r.who].request("POST", f"/v1/{path}/messages", json=wire(r, at.ids))
    body = resp.json()
    return [(resp.status_code, body if resp.status_code < 400 else problem_code(body))]


async def setup(hub: Any, make_agent: MakeAgent) -> Place:
    """A session whose leader L calls P point to point, and a group of it under the
    ``turns`` policy that L owns, with Q, R (muted) and W, who only listens; and another
    session of L's with P."""
    agents = {k: await make_agent(k.lower()) for k in ("L", "P", "Q", "R", "W", "X")}
    ids = {k: str(a.agent_id) for k, a in agents.items()}
    receivers = [{"agentId": ids["P"], "mode": "p2p"}]
    receivers += [{"agentId": ids[k], "mode": "group"} for k in "QRW"]
    resp = await agents["L"].request("POST", "/v1/sessions", json={"receivers": receivers})
    assert resp.status_code == 201, resp.text
    session_id = resp.json()["id"]
    other = {"receivers": [{"agentId": ids["P"], "mode": "p2p"}]}
    resp = await agents["L"].request("POST", "/v1/sessions", json=other)
    assert resp.status_code == 201, resp.text
    sessions = {"s": session_id, "o": resp.json()["id"]}
    group = await create_group(
        agents["L"],
        session_id,
        inviteIds=[ids[k] for k in "QRW"],
        speakingPolicy="turns",
        turnTimeoutSeconds=3600,  # no turn times out while the test runs
    )
    for k in "QRW":
        resp = await agents[k].request(
            "POST", f"/v1/groups/{group['id']}/invitations/{ids[k]}/accept"
        )
        assert resp.status_code == 200, resp.text
    resp = await agents["L"].request("POST", f"/v1/groups/{group['id']}/members/{ids[MUTED]}/mute")
    assert resp.status_code == 200, resp.text
    return Place(hub, agents, ids, sessions, group["id"])


async def held(at: Place) -> tuple[list[StoredMessage], list[Task], list[Any], dict[str, Any]]:
    """What the hub holds: the sessions' rows (in the order stored) and tasks (the other
    session's named ``…@o``), the group's events (its stream's frames, as it replays them
    from SQL: posts and other events, by seq), the agents' inboxes."""
    async with parts(at.hub).session_factory() as db:
        rows = (
            await db.exec(
                select(StoredMessage)
                .where(col(StoredMessage.session_id).in_(at.sessions.values()))
                .order_by(col(StoredMessage.pk))
            )
        ).all()
        tasks = (
            await db.exec(select(Task).where(col(Task.session_id).in_(at.sessions.values())))
        ).all()
        events = (
            await db.exec(select(GroupEvent).where(col(GroupEvent.group_id) == at.group))
        ).all()
        inbox = (
            await db.exec(
                select(InboxEvent)
                .where(col(InboxEvent.agent_id).in_([at.ids[k] for k in "PQRW"]))
                .order_by(col(InboxEvent.seq))
            )
        ).all()
    posts = [(r.seq or 0, "message", r.body) for r in rows if r.group_id is not None]
    frames = sorted([*posts, *((e.seq, e.kind, e.data) for e in events)], key=lambda f: f[0])
    by_agent: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for e in inbox:
        by_agent.setdefault(e.agent_id, []).append((e.kind, e.data))
    return list(rows), list(tasks), frames, by_agent


def frame(kind: str, data: dict[str, Any], who: dict[str, str]) -> tuple[Any, ...]:
    """A group stream's frame as the reference writes it: a post's id, a floor's move."""
    if kind == "message":
        return ("message", data["id"])
    speakers = [who[s] for s in data["speakers"]] if data.get("speakers") else None
    return (kind, speakers, data["reason"], who[data["by"]])


@pytest.mark.parametrize("seed", range(SEEDS))
async def test_engine_matches_reference(make_agent: MakeAgent, hub: Any, seed: int) -> None:
    rng = random.Random(seed)
    recs = gen(rng, rng.randrange(25, 50))
    at = await setup(hub, make_agent)
    ids = at.ids
    _, _, before, _ = await held(at)
    ref = Reference(ids)
    trace = []
    for how, run in deliveries(rng, recs):
        answers = await send(at, how, run)
        for r, (got, body) in zip(run, answers, strict=True):
            first = r.n not in ref.stored
            want, code = ref.expect(r)
            trace.append(
                f"{r.id}:{how[0]}{r.where}{r.who}:{r.kind}:{r.task}:{r.command or r.state}"
                + (f">{''.join(r.nxt)}" if r.nxt else "")
            )
            why = (
                f"seed {seed}: {r} answered {got} {body if got >= 400 else ''}, the reference "
                f"says {want} {code or ''}; sent {trace}"
            )
            assert got == want, why
            if code is not None:
                assert body == code, why
            if want == 200:
                assert body == ref.stored[r.n], why
            elif want in (201, 202) and first:
                ref.stored[r.n] = body
    rows, tasks, frames, inbox = await held(at)
    who = {v: k for k, v in ids.items()}
    stored = [r.message_id for r in rows if not r.message_id.startswith("m-")]
    got_tasks = {
        t.id + ("@o" if t.session_id == at.sessions["o"] else ""): (
            t.state,
            [(s["state"], s["stateChangedAt"]) for s in t.status_history],
            [item["text"] for p in t.products for item in p["dataItems"]],
        )
        for t in tasks
    }
    why = f"seed {seed}: sent {trace}"
    assert stored == ref.order, why
    assert got_tasks == ref.task_facts(), why
    # the group's stream: its posts and floor moves, by seq, one after the other
    new = frames[len(before) :]
    assert [f[0] for f in frames] == list(range(frames[0][0], frames[0][0] + len(frames))), why
    got_frames = [frame(kind, data, who) for _, kind, data in new]
    assert got_frames == ref.frames, why
    bodies = {b["id"]: b for b in ref.stored.values() if b.get("groupId")}
    assert [data for _, kind, data in new if kind == "message"] == [
        bodies[f[1]] for f in ref.frames if f[0] == "message"
    ], why
    # each command its partner's inbox; each invited member its invitation
    for k in "PQR":
        got_inbox = [data["id"] for kind, data in inbox.get(ids[k], []) if kind == "task"]
        assert got_inbox == ref.inbox[k], f"{why}: {k}'s inbox"
    for k in "QRW":
        states = [d.get("state") for kind, d in inbox[ids[k]] if kind == "member"]
        assert states[:1] == ["invited"], f"{why}: {k}'s inbox"
