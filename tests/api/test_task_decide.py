"""The task rule as one pure decision (``app.tasks.decide``): each refusal by its code, each
outcome of a move, and what it asks to read before it can say, with no hub and no store."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from agenthub.protocol.messages import parse_message
from app.errors import HubError
from app.tasks.decide import (
    NOTHING_STORED,
    Needs,
    NewTask,
    Read,
    Stored,
    TaskMove,
    TaskPlace,
    decide,
)
from app.tasks.projection import AnyTaskMessage, Outcome, sort_key

T0 = datetime(2026, 12, 1, tzinfo=UTC)
P2P = TaskPlace("s", None, {"P", "O"}, leader_id="L")


@dataclass
class Row:
    """A task as held: the columns the rule reads."""

    id: str = "t"
    group_id: str | None = None
    parent_task_id: str | None = None
    dependencies: list[str] = field(default_factory=list)
    leader_id: str = "L"
    partner_id: str = "P"
    state: str | None = None
    status: dict[str, Any] | None = None
    status_history: list[dict[str, Any]] = field(default_factory=list)
    products: list[dict[str, Any]] = field(default_factory=list)
    commanded: bool = False
    last_key: str | None = None
    pending: int = 0


def at(second: float) -> str:
    return (T0 + timedelta(seconds=second)).isoformat().replace("+00:00", "Z")


def command(n: int, name: str, sender: str = "L", **extra: Any) -> AnyTaskMessage:
    body = {
        "type": "task-command",
        "id": f"c{n}",
        "sentAt": at(n),
        "senderRole": "leader",
        "senderId": sender,
        "taskId": "t",
        "command": name,
        **extra,
    }
    return parse_message(body)


def start(n: int = 0, sender: str = "L", **extra: Any) -> AnyTaskMessage:
    return command(n, "start", sender, **({"partnerId": "P"} | extra))


def report(n: int, state: str, sender: str = "P") -> AnyTaskMessage:
    body = {
        "type": "task-result",
        "id": f"r{n}",
        "sentAt": at(n),
        "senderRole": "partner",
        "senderId": sender,
        "taskId": "t",
        "status": {"state": state, "stateChangedAt": at(n)},
    }
    return parse_message(body)


def talk(n: int) -> AnyTaskMessage:
    body = {
        "type": "message",
        "id": f"m{n}",
        "sentAt": at(n),
        "senderRole": "partner",
        "senderId": "P",
        "taskId": "t",
        "dataItems": [{"type": "text", "text": "hi"}],
    }
    return parse_message(body)


def stored(*messages: AnyTaskMessage, waiting: bool = False) -> Stored:
    return Stored({(m.sender_id, m.id): m for m in messages}, waiting)


def held(state: str | None, n: int = 1, **extra: Any) -> Row:
    """A task in ``state``, its last message sent at second ``n``."""
    status = {"state": state, "stateChangedAt": at(n)} if state else None
    key = sort_key(report(n, state or "accepted"))
    return Row(state=state, status=status, status_history=[status] if status else [], last_key=key)


def move(decision: object) -> TaskMove:
    assert isinstance(decision, TaskMove), decision
    return decision


def refused(decision: object) -> str:
    assert isinstance(decision, HubError), decision
    return decision.code


# refusals, one a code


def test_a_command_without_a_task_id_is_refused() -> None:
    message = command(1, "cancel").model_copy(update={"task_id": None})
    assert refused(decide(None, message, P2P, task_id=None)) == "task-id-missing"


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"partnerId": None}, "partner-unnamed"),
        ({"partnerId": None, "mentions": ["P", "O"]}, "partner-unnamed"),
        ({"partnerId": "L"}, "self-partner"),
        ({"partnerId": "X"}, "partner-not-here"),
    ],
)
def test_a_start_names_one_partner_other_than_its_leader_who_takes_part(
    extra: dict[str, Any], code: str
) -> None:
    assert refused(decide(None, start(**extra), P2P, task_id="t")) == code


def test_a_bridge_sessions_leader_may_be_its_own_partner() -> None:
    bridge = TaskPlace("s", None, {"L"}, leader_id="L", self_partner=True)
    decision = decide(None, start(partnerId="L"), bridge, task_id="t", stored=NOTHING_STORED)
    assert move(decision).new == NewTask("L", "L")
    assert move(decision).inbox is None  # a bridge's record of its caller's own command


def test_a_second_start_with_another_partner_is_refused() -> None:
    assert refused(decide(held("working"), start(5, partnerId="O"), P2P, task_id="t")) == (
        "task-exists"
    )


def test_a_task_is_posted_about_where_it_lives() -> None:
    in_group = Row(group_id="g")
    assert refused(decide(in_group, report(2, "working"), P2P, task_id="t")) == "task-elsewhere"
    group = TaskPlace("s", "g", {"P"})
    assert refused(decide(Row(), talk(2), group, task_id="t")) == "task-elsewhere"


@pytest.mark.parametrize(
    "message", [command(2, "cancel", sender="P"), report(2, "working", sender="L")]
)
def test_commands_are_the_leaders_and_reports_the_partners(message: AnyTaskMessage) -> None:
    assert refused(decide(held("accepted"), message, P2P, task_id="t")) == "wrong-task-role"


def test_a_report_no_reachable_state_allows_is_refused() -> None:
    assert refused(decide(held("completed"), report(5, "working"), P2P, task_id="t")) == (
        "illegal-task-move"
    )


def test_a_parent_must_be_a_task_of_the_session_its_leader_takes_part_in() -> None:
    message = start(parentTaskId="up", dependencies=["dep"])
    assert decide(None, message, P2P, task_id="t") == Needs(refs=("up", "dep"))
    theirs = {"up": ("X", "Y"), "dep": ("X", "Y")}
    assert refused(decide(None, message, P2P, task_id="t", refs=theirs)) == "unknown-task"
    missing = {"up": ("L", "Y")}
    assert refused(decide(None, message, P2P, task_id="t", refs=missing)) == "unknown-task"
    mine = {"up": ("L", "Y"), "dep": ("X", "Y")}  # a dependency need not be its leader's
    assert decide(None, message, P2P, task_id="t", refs=mine) == Needs(Read.ALL)
    made = move(decide(None, message, P2P, task_id="t", refs=mine, stored=NOTHING_STORED))
    assert made.new == NewTask("L", "P", "up", ["dep"])


# outcomes, one a move


def test_a_start_makes_the_task_with_what_waited_for_it() -> None:
    assert decide(None, start(), P2P, task_id="t") == Needs(Read.ALL)
    early = report(1, "accepted")
    made = move(decide(None, start(), P2P, task_id="t", stored=stored(early)))
    assert (made.outcome, made.new, made.inbox) == (Outcome.APPLIED, NewTask("L", "P"), "P")
    assert made.values["state"] == "accepted" and made.values["pending"] == 0
    assert made.waits == ()  # the report waited; it went in


def test_a_partners_first_report_makes_a_point_to_point_task_led_by_the_sessions_leader() -> None:
    made = move(decide(None, report(1, "accepted"), P2P, task_id="t", stored=NOTHING_STORED))
    assert made.new == NewTask("L", "P") and made.values["state"] == "accepted"
    group = TaskPlace("s", "g", {"P"})
    assert move(decide(None, report(1, "accepted"), group, task_id="t")).outcome is (
        Outcome.NOT_YET
    )


def test_a_command_for_a_task_not_made_yet_waits_for_it() -> None:
    waits = move(decide(None, command(1, "cancel"), P2P, task_id="t"))
    assert (waits.outcome, waits.new, waits.values, waits.inbox) == (
        Outcome.NOT_YET,
        None,
        {},
        None,
    )


def test_plain_talk_about_a_task_moves_nothing() -> None:
    assert move(decide(held("working"), talk(5), P2P, task_id="t")) == TaskMove("t")
    assert move(decide(None, talk(5), P2P, task_id=None)) == TaskMove(None)


def test_a_move_the_table_allows_applies() -> None:
    moved = move(decide(held("accepted"), report(2, "working"), P2P, task_id="t"))
    assert moved.outcome is Outcome.APPLIED and moved.values["state"] == "working"
    assert moved.values["last_key"] == sort_key(report(2, "working")) and not moved.final
    ended = move(decide(held("awaiting-completion"), command(3, "complete"), P2P, task_id="t"))
    assert ended.final and ended.inbox == "P" and ended.values["state"] == "completed"


def test_a_move_recorded_again_is_the_same_move() -> None:
    again = move(decide(held("accepted"), report(1, "accepted"), P2P, task_id="t"))
    assert again.outcome is Outcome.SAME and again.values["state"] == "accepted"
    assert len(again.values["status_history"]) == 1  # the task as it was, its last key on
    restart = move(decide(held("working"), start(5), P2P, task_id="t"))
    assert (restart.outcome, restart.values, restart.inbox) == (Outcome.SAME, {}, "P")


def test_a_second_start_keeps_the_parent_a_report_made_task_lacked() -> None:
    message = start(5, parentTaskId="up")
    assert decide(held("working"), message, P2P, task_id="t") == Needs(refs=("up",))
    kept = move(decide(held("working"), message, P2P, task_id="t", refs={"up": ("L", "P")}))
    assert kept.values == {"parent_task_id": "up", "dependencies": []}


def test_a_move_not_allowed_yet_waits() -> None:
    early = move(decide(held("accepted"), report(2, "completed"), P2P, task_id="t"))
    assert early.outcome is Outcome.NOT_YET and early.values["pending"] == 1
    assert early.values["state"] == "accepted"  # the task stays where it was


def test_a_command_no_reachable_state_allows_is_ignored() -> None:
    late = move(decide(held("completed"), command(5, "cancel"), P2P, task_id="t"))
    assert late.outcome is Outcome.IGNORED and late.inbox == "P"


def test_get_is_copied_to_no_inbox() -> None:
    assert move(decide(held("working"), command(5, "get"), P2P, task_id="t")).inbox is None


# what it asks to read


def test_a_message_sorting_before_what_the_task_has_folds_it_all_again() -> None:
    task = held("accepted", n=3)
    task.pending = 1
    late = report(2, "working")  # sent before the task's last
    assert decide(task, late, P2P, task_id="t") == Needs(Read.ALL)
    history = stored(report(1, "accepted"), report(3, "awaiting-completion"))
    again = move(decide(task, late, P2P, task_id="t", stored=history))
    assert again.outcome is Outcome.APPLIED and again.waits == ()  # the one that waited, in
    assert again.values["state"] == "awaiting-completion" and again.values["pending"] == 0
    assert again.values["last_key"] == sort_key(report(3, "awaiting-completion"))


def test_a_task_with_waiting_messages_folds_on_from_those() -> None:
    waiting = report(3, "awaiting-completion")
    task = held("accepted", n=3)
    task.pending = 1
    assert decide(task, report(4, "working"), P2P, task_id="t") == Needs(Read.WAITING)
    waits = stored(waiting, waiting=True)
    on = move(decide(task, report(4, "working"), P2P, task_id="t", stored=waits))
    assert on.outcome is Outcome.APPLIED and on.values["state"] == "awaiting-completion"
    assert on.unwaits == (("P", "r3"),) and on.values["pending"] == 0 and on.waits is None


def test_marks_that_disagree_with_the_tasks_count_fold_it_all_again() -> None:
    task = held("accepted", n=3)
    task.pending = 2
    one = stored(report(3, "completed"), waiting=True)
    assert decide(task, report(4, "working"), P2P, task_id="t", stored=one) == Needs(Read.ALL)


def test_a_refold_marks_what_still_waits() -> None:
    task = held("accepted", n=5)
    history = stored(report(1, "accepted"), report(5, "completed"))
    refolded = move(decide(task, report(2, "working"), P2P, task_id="t", stored=history))
    assert refolded.outcome is Outcome.APPLIED and refolded.values["state"] == "working"
    assert refolded.waits == (("P", "r5"),) and refolded.values["pending"] == 1


def test_a_first_result_keeps_the_moves_its_history_shows_even_when_its_own_waits() -> None:
    body = {
        "type": "task-result",
        "id": "r3",
        "sentAt": at(3),
        "senderRole": "partner",
        "senderId": "P",
        "taskId": "t",
        "status": {"state": "awaiting-completion", "stateChangedAt": at(3)},
        "statusHistory": [{"state": "accepted", "stateChangedAt": at(1)}],
    }
    made = move(decide(None, parse_message(body), P2P, task_id="t", stored=NOTHING_STORED))
    assert made.outcome is Outcome.NOT_YET  # accepted, then awaiting-completion waits
    assert made.values["state"] == "accepted" and made.values["pending"] == 1
