"""The task projection as a pure fold: the same task messages give the same task, whatever
order they arrive in.

A task is recorded from two sides (its leader's commands, its partner's reports), by two
processes that reach the hub independently, and by peers that may record nothing at all. So
the hub does not insist on arrival order: it folds a task's messages in the order they were
sent (``sentAt``, then sender and id), and a move that the AIP state table does not allow yet
waits (``NOT_YET``) until a move that makes it legal has been applied, then goes in. A record
of the move the task already made (both sides recording one move) is the ``SAME`` move, a
no-op. A move that no state the task can still reach allows (the task is final, or has gone
past it) is ``NEVER``: refused, not stored. A leader command that no state the task can
still reach allows is ``IGNORED``: AIP §4.5 has the partner ignore an out-of-state command
(``complete`` or ``continue`` on an ended task, ``cancel`` on one ended), so the hub keeps it
in the session's history as it was sent, and it moves nothing.

A leader command waits only for clocks apart (``CLOCK_SKEW_SECONDS``): one sent longer than
that before the report that would allow it was sent while the task could not take it, so its
partner ignored it, and so does the hub (``IGNORED``), where applying it would leave the hub's
task ahead of the partner's.

In the usual case a message sorts after everything applied and nothing waits: ``step`` applies
it alone. Otherwise the task is folded again from all its messages (a few per task).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

from agenthub.protocol.messages import (
    Message,
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatus,
    TaskStatusUpdate,
)
from agenthub.protocol.tasks import (
    LEADER_MOVES,
    PARTNER_MOVES,
    is_final,
    leader_command_target,
    partner_may_report,
)

AnyTaskMessage = Message | TaskCommand | TaskResult | TaskStatusUpdate | ProductChunk

# the state a leader command ends the task in from wherever it is allowed: a repeat of it
# there is the same move
_COMMAND_STATE = {command: to for (_, command), to in LEADER_MOVES.items() if is_final(to)}
NO_MOVE_COMMANDS = frozenset({TaskCommandType.GET, TaskCommandType.RE_STREAM})
CLOCK_SKEW_SECONDS = 5.0
"""How far apart a leader's and a partner's clocks may be."""


def role_error(leader_id: str, partner_id: str, message: AnyTaskMessage) -> str | None:
    """Why the message's sender may not send it to this task: commands are its leader's,
    reports its partner's."""
    if isinstance(message, TaskCommand) and message.sender_id != leader_id:
        return "Only the task's leader sends it commands."
    reports = isinstance(message, TaskResult | TaskStatusUpdate | ProductChunk)
    if reports and message.sender_id != partner_id:
        return "Only the task's partner reports its status and products."
    return None


def _reachable() -> dict[TaskState | None, frozenset[TaskState]]:
    """The states a task can still come to from each state, in one move or more."""
    nexts: dict[TaskState | None, set[TaskState]] = {}
    for origin, targets in PARTNER_MOVES.items():
        nexts.setdefault(origin, set()).update(targets)
    for (origin, _), target in LEADER_MOVES.items():
        nexts.setdefault(origin, set()).add(target)
    reach: dict[TaskState | None, frozenset[TaskState]] = {}
    for origin in [None, *TaskState]:
        seen: set[TaskState] = set()
        todo = list(nexts.get(origin, ()))
        while todo:
            state = todo.pop()
            if state not in seen:
                seen.add(state)
                todo.extend(nexts.get(state, ()))
        reach[origin] = frozenset(seen)
    return reach


REACHABLE = _reachable()


def partner_may_record(current: TaskState | None, new: TaskState) -> bool:
    """What a partner may report: its own moves (the AIP table), and its answer to a leader
    command, the state the command leads to (AIP partners answer ``complete`` with a
    ``completed`` result). A leader that records nothing (an acps-sdk client) still leaves
    the task where its partner says. And a task may fail before it began: a start answered
    ``failed`` (an acps-sdk partner may create its task so), or a start whose call failed,
    as its leader records it (``agenthub.failed_start``)."""
    if partner_may_report(current, new) or (current is None and new == TaskState.FAILED):
        return True
    return current is not None and any(
        target == new for (origin, _), target in LEADER_MOVES.items() if origin == current
    )


def could_apply_later(current: TaskState | None, message: AnyTaskMessage) -> bool:
    """Whether some state the task can still reach would let ``message`` in."""
    if isinstance(message, TaskCommand):
        return any(leader_command_target(s, message.command) for s in REACHABLE[current])
    if isinstance(message, ProductChunk):
        return any(not is_final(s) for s in REACHABLE[current])
    if isinstance(message, TaskResult | TaskStatusUpdate):
        return any(partner_may_record(s, message.status.state) for s in REACHABLE[current])
    return False


class Outcome(enum.Enum):
    APPLIED = "applied"  # moved the task (or carried no move: start, get, plain talk)
    SAME = "same"  # the move the task already made, recorded again (by the other side)
    NOT_YET = "not-yet"  # not allowed from the task's state now; applied once it is
    NEVER = "never"  # cannot apply: the task is final, or the sender has no part in it
    IGNORED = "ignored"  # a leader command AIP ignores where the task is: kept, moves nothing


@dataclass
class TaskFacts:
    """What the messages of one task add up to."""

    leader_id: str
    partner_id: str
    state: TaskState | None = None
    status: dict[str, Any] | None = None
    status_history: list[dict[str, Any]] = field(default_factory=list)
    products: list[dict[str, Any]] = field(default_factory=list)
    commanded: bool = False  # the status is a leader command's move, the partner's word to come
    why: str = ""  # why the last message stepped was not applied


def sort_key(message: AnyTaskMessage) -> str:
    """The order the fold takes messages in: when sent, then by whom, then which."""
    at = message.sent_at.astimezone(UTC)
    if at.year >= 1000:  # isoformat writes what strftime does, several times faster
        sent = f"{at.replace(tzinfo=None).isoformat(timespec='microseconds')}Z"
    else:  # strftime's %Y does not pad a year before 1000: the keys stored keep its form
        sent = at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return f"{sent}|{message.sender_id}|{message.id}"


def _merge_products(
    current: list[dict[str, Any]], new: list[dict[str, Any]], *, append: bool = False
) -> list[dict[str, Any]]:
    by_id = {p["id"]: p for p in current}
    for product in new:
        old = by_id.get(product["id"])
        if append and old is not None:
            merged = {**old, **product, "dataItems": old["dataItems"] + product["dataItems"]}
            by_id[product["id"]] = merged
        else:
            by_id[product["id"]] = product
    return list(by_id.values())


def _set_status(
    facts: TaskFacts,
    status: TaskStatus,
    wire: dict[str, Any] | None = None,
    *,
    commanded: bool = False,
) -> None:
    wire = status.to_wire() if wire is None else wire
    facts.state = status.state
    facts.status = wire
    facts.status_history = [*facts.status_history, wire]
    facts.commanded = commanded


def _reported(facts: TaskFacts, status: TaskStatus, wire: dict[str, Any]) -> None:
    """The partner's status, in: where its leader's command made the same move (a
    ``continue`` to working) and both sides record, the partner's report of that move takes
    the command's place, so the hub holds one move where the partner holds one."""
    if facts.commanded and status.state == facts.state and not is_final(facts.state):
        facts.status = wire
        facts.status_history = [*facts.status_history[:-1], wire]
        facts.commanded = False
        return
    _set_status(facts, status, wire)


def _not_now(facts: TaskFacts, message: AnyTaskMessage, why: str) -> Outcome:
    facts.why = why
    return Outcome.NOT_YET if could_apply_later(facts.state, message) else _dead(message)


def _dead(message: AnyTaskMessage) -> Outcome:
    """The outcome of a message the task can no longer take: a leader's command is ignored
    (AIP §4.5), a report is refused."""
    return Outcome.IGNORED if isinstance(message, TaskCommand) else Outcome.NEVER


def step(facts: TaskFacts, message: AnyTaskMessage) -> Outcome:
    """Apply one message to ``facts`` if the state table allows it now."""
    current = facts.state
    if why := role_error(facts.leader_id, facts.partner_id, message):
        facts.why = why
        return Outcome.NEVER
    if isinstance(message, TaskCommand):
        command = message.command
        if command == TaskCommandType.START or command in NO_MOVE_COMMANDS:
            return Outcome.APPLIED
        target = leader_command_target(current, command)
        if target is not None:
            _set_status(
                facts,
                TaskStatus(
                    state=target, state_changed_at=message.sent_at, data_items=message.data_items
                ),
                commanded=True,
            )
            return Outcome.APPLIED
        if current is not None and _COMMAND_STATE.get(command) == current:
            return Outcome.SAME
        return _not_now(
            facts,
            message,
            f"'{command.value}' is not allowed while the task is "
            f"{current.value if current else 'not yet accepted'}.",
        )
    if isinstance(message, TaskResult | TaskStatusUpdate | ProductChunk):
        if isinstance(message, ProductChunk):
            if current is None or is_final(current):
                return _not_now(facts, message, "Products can be added only to a live task.")
            facts.products = _merge_products(
                facts.products, [message.product.to_wire()], append=message.append
            )
            return Outcome.APPLIED
        new = message.status.state
        status = message.status.to_wire()  # once: dumping a model is the fold's dearest step
        if status in facts.status_history:
            return Outcome.SAME  # recorded already (by itself, or in a later result's history)
        if isinstance(message, TaskResult):
            _catch_up(facts, message, status)
            current = facts.state
        if partner_may_record(current, new):
            _reported(facts, message.status, status)
            if isinstance(message, TaskResult) and message.products:
                facts.products = _merge_products(
                    facts.products, [p.to_wire() for p in message.products]
                )
            return Outcome.APPLIED
        if current is not None and is_final(current) and new == current:
            return Outcome.SAME
        return _not_now(
            facts,
            message,
            f"The partner may not move the task from "
            f"{current.value if current else 'its start'} to {new.value}.",
        )
    return Outcome.APPLIED  # plain talk about the task moves nothing


def _catch_up(facts: TaskFacts, result: TaskResult, last: dict[str, Any]) -> None:
    """Apply the moves a result's ``statusHistory`` shows and the task has not seen: a
    partner that records nothing (its leader relays its answers) reports a task's whole path
    in one answer (``last``: the result's own status, as wire)."""
    for status in result.status_history or []:
        wire = status.to_wire()
        if wire == last or wire in facts.status_history:
            continue
        if partner_may_record(facts.state, status.state):
            _reported(facts, status, wire)


def fold(
    leader_id: str, partner_id: str, messages: list[AnyTaskMessage]
) -> tuple[TaskFacts, dict[tuple[str, str], Outcome]]:
    """The task ``messages`` add up to, and each message's outcome by (sender, id)."""
    facts = TaskFacts(leader_id, partner_id)
    outcomes: dict[tuple[str, str], Outcome] = {}
    waiting: list[AnyTaskMessage] = []
    for message in sorted(messages, key=sort_key):
        outcome = step(facts, message)
        outcomes[(message.sender_id, message.id)] = outcome
        if outcome is Outcome.NOT_YET:
            waiting.append(message)
        elif outcome is Outcome.APPLIED and waiting:
            _retry(facts, waiting, outcomes, message)
    for message in waiting:  # what the task can no longer come to take, it never will
        if not could_apply_later(facts.state, message):
            outcomes[(message.sender_id, message.id)] = _dead(message)
    return facts, outcomes


def fold_on(
    facts: TaskFacts, waiting: list[AnyTaskMessage], message: AnyTaskMessage
) -> tuple[dict[tuple[str, str], Outcome], list[AnyTaskMessage]]:
    """``fold`` of one more message, sent after every one folded into ``facts`` so far, of
    which ``waiting`` (in sending order) are the ones that still wait: the outcomes that
    changed (``message``'s among them), and what waits now. The same task as ``fold`` of
    them all, without reading the ones that went in."""
    outcomes: dict[tuple[str, str], Outcome] = {}
    waiting = list(waiting)
    outcome = step(facts, message)
    outcomes[(message.sender_id, message.id)] = outcome
    if outcome is Outcome.NOT_YET:
        waiting.append(message)
    elif outcome is Outcome.APPLIED and waiting:
        _retry(facts, waiting, outcomes, message)
    still = []
    for kept in waiting:  # what the task can no longer come to take, it never will
        if could_apply_later(facts.state, kept):
            still.append(kept)
        else:
            outcomes[(kept.sender_id, kept.id)] = _dead(kept)
    return outcomes, still


def _retry(
    facts: TaskFacts,
    waiting: list[AnyTaskMessage],
    outcomes: dict[tuple[str, str], Outcome],
    applied: AnyTaskMessage,
) -> None:
    """Apply waiting messages, in order, for as long as one of them goes in (``applied``:
    the one that went in last). A leader command sent well before it is ignored instead."""
    progress = True
    while progress and waiting:
        progress = False
        for message in list(waiting):
            if _too_early(message, applied):
                outcomes[(message.sender_id, message.id)] = Outcome.IGNORED
                waiting.remove(message)
                continue
            outcome = step(facts, message)
            if outcome is Outcome.NOT_YET:
                continue
            outcomes[(message.sender_id, message.id)] = outcome
            waiting.remove(message)
            if outcome is Outcome.APPLIED:
                applied, progress = message, True
                break


def _too_early(message: AnyTaskMessage, applied: AnyTaskMessage) -> bool:
    """A leader command sent longer before ``applied`` (which sorts after it) than clocks
    can be apart: sent while the task could not take it (AIP §4.5: ignored)."""
    early = (applied.sent_at - message.sent_at).total_seconds()
    return isinstance(message, TaskCommand) and early > CLOCK_SKEW_SECONDS
