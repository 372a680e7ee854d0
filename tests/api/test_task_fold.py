"""The task projection is a fold over the task's messages: the same task whatever order its
records arrive in (two recorders, two processes, and peers that record nothing)."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agenthub.protocol.messages import parse_message
from app.tasks.projection import AnyTaskMessage, Outcome, fold, fold_on

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def at(second: float) -> str:
    return (T0 + timedelta(seconds=second)).isoformat().replace("+00:00", "Z")


def leader(n: int, command: str, **extra: Any) -> AnyTaskMessage:
    body = {
        "type": "task-command",
        "id": f"l{n}",
        "sentAt": at(n),
        "senderRole": "leader",
        "senderId": "L",
        "sessionId": "s",
        "taskId": "t",
        "command": command,
        **extra,
    }
    return parse_message(body)


def partner(n: int, state: str) -> AnyTaskMessage:
    body = {
        "type": "task-result",
        "id": f"p{n}",
        "sentAt": at(n),
        "senderRole": "partner",
        "senderId": "P",
        "sessionId": "s",
        "taskId": "t",
        "status": {"state": state, "stateChangedAt": at(n)},
    }
    return parse_message(body)


ECHO = [
    leader(0, "start", partnerId="P"),
    partner(1, "accepted"),
    partner(2, "working"),
    partner(3, "awaiting-completion"),
    leader(4, "complete"),
]


def summary(messages: list[AnyTaskMessage]) -> tuple[Any, ...]:
    facts, outcomes = fold("L", "P", messages)
    return (
        facts.state,
        [s["state"] for s in facts.status_history],
        sorted((k, o.value) for k, o in outcomes.items()),
    )


def test_every_arrival_order_gives_the_same_task() -> None:
    expected = summary(ECHO)
    assert expected[1] == ["accepted", "working", "awaiting-completion", "completed"]
    assert all(o == "applied" for _, o in expected[2])
    for order in itertools.permutations(ECHO):
        assert summary(list(order)) == expected


def test_a_leader_clock_behind_the_partners_still_converges() -> None:
    # the leader's complete says it was sent before the partner asked for completion
    skewed = [*ECHO[:4], leader(2, "complete")]
    facts, outcomes = fold("L", "P", skewed)
    assert facts.state.value == "completed"  # type: ignore[union-attr]
    assert all(o is Outcome.APPLIED for o in outcomes.values())


def test_a_continue_both_sides_record_is_one_move_the_partners_in_any_order() -> None:
    """The leader's ``continue`` moves the task to working; the partner's report of the
    same move takes its place: one working, the partner's, as the partner holds it."""
    messages = [
        *ECHO[:4],
        leader(4, "continue"),
        partner(5, "working"),
        partner(6, "awaiting-completion"),
        leader(7, "complete"),
    ]
    expected = summary(messages)
    assert expected[1] == [
        "accepted",
        "working",
        "awaiting-completion",
        "working",
        "awaiting-completion",
        "completed",
    ]
    facts, _ = fold("L", "P", messages)
    assert facts.status_history[3]["stateChangedAt"] == at(5)  # the partner's
    for order in itertools.permutations(messages[3:]):
        assert summary([*messages[:3], *order]) == expected


def test_what_cannot_apply_any_more_is_never_and_a_repeat_is_the_same_move() -> None:
    """A report past the end is refused; a leader's command there is ignored (AIP §4.5)."""
    messages = [*ECHO, leader(5, "cancel"), partner(6, "working"), leader(7, "complete")]
    _, outcomes = fold("L", "P", messages)
    assert outcomes[("L", "l5")] is Outcome.IGNORED
    assert outcomes[("P", "p6")] is Outcome.NEVER
    assert outcomes[("L", "l7")] is Outcome.SAME


def test_a_partners_timeout_move_is_its_own_and_a_late_command_is_ignored() -> None:
    """AIP §4.5 rows 11 and 15, whichever order the records come in."""
    for wait, end in (("awaiting-input", "canceled"), ("awaiting-completion", "completed")):
        messages = [
            leader(0, "start", partnerId="P"),
            partner(1, "accepted"),
            partner(2, "working"),
            partner(3, wait),
            partner(4, end),  # the wait timed out
            leader(5, "continue"),  # sent before the leader heard
        ]
        for order in itertools.permutations(messages):
            facts, outcomes = fold("L", "P", list(order))
            assert facts.state is not None and facts.state.value == end
            assert outcomes[("P", "p4")] is Outcome.APPLIED
            assert outcomes[("L", "l5")] is Outcome.IGNORED


def test_a_command_sent_well_before_its_state_is_ignored_not_kept_for_later() -> None:
    """A complete sent while the task worked (a minute before it awaited completion) was
    ignored by the partner; the hub ignores it too, whatever order the records come in, and
    the partner's later moves go in."""
    messages = [
        leader(0, "start", partnerId="P"),
        partner(1, "accepted"),
        partner(2, "working"),
        leader(3, "complete"),  # too early
        partner(63, "awaiting-completion"),
        leader(64, "continue"),
        partner(65, "working"),
    ]
    for order in (messages, messages[::-1], [messages[3], *messages[:3], *messages[4:]]):
        facts, outcomes = fold("L", "P", list(order))
        assert outcomes[("L", "l3")] is Outcome.IGNORED
        assert facts.state is not None and facts.state.value == "working"
        assert outcomes[("P", "p65")] is Outcome.APPLIED


def test_a_hundred_shuffles_of_a_long_task_agree() -> None:
    messages = [leader(0, "start", partnerId="P"), partner(1, "accepted"), partner(2, "working")]
    n = 3
    for _ in range(5):  # ask, answer, ask again
        messages += [
            partner(n, "awaiting-input"),
            leader(n + 1, "continue"),
            partner(n + 2, "working"),
        ]
        n += 3
    messages += [partner(n, "awaiting-completion"), leader(n + 1, "complete")]
    expected = summary(messages)
    assert expected[0].value == "completed"
    rng = random.Random(7)
    for _ in range(100):
        rng.shuffle(messages)
        assert summary(messages) == expected


def test_folding_on_from_what_waits_is_the_fold_of_everything() -> None:
    # in sending order, with leader commands sent before the partner's state allowed them
    # (clocks apart): they wait, and go in once a later report allows them
    messages = [
        leader(0, "start", partnerId="P"),
        partner(1, "accepted"),
        partner(2, "working"),
        leader(3, "complete"),  # waits: the task is working
        partner(4, "working"),
        leader(5, "cancel"),  # goes in at once: a working task can be canceled
        partner(6, "awaiting-completion"),  # too late: canceled, so never
        leader(7, "complete"),  # ignored (AIP §4.5): kept, moves nothing
    ]
    facts, _ = fold("L", "P", [])
    waiting: list[AnyTaskMessage] = []
    every: dict[tuple[str, str], Outcome] = {}
    for n, message in enumerate(messages, start=1):
        changed, waiting = fold_on(facts, waiting, message)
        every.update(changed)
        whole, outcomes = fold("L", "P", messages[:n])
        assert (facts.state, facts.status_history, facts.products) == (
            whole.state,
            whole.status_history,
            whole.products,
        )
        assert every == outcomes
        assert [(m.sender_id, m.id) for m in waiting] == [
            k for k, o in outcomes.items() if o is Outcome.NOT_YET
        ]
    assert every[("L", "l3")] is Outcome.IGNORED and every[("L", "l5")] is Outcome.APPLIED


def test_a_time_without_its_offset_is_aip_beijing_time_beside_aware_ones() -> None:
    """AIP's times are "Beijing time by default": a leader's command whose sentAt carries no
    offset folds beside the partner's aware reports (a naive and an aware time do not even
    compare), at its place eight hours before the same clock reading in UTC."""
    naive_start = parse_message(
        {**leader(0, "start", partnerId="P").to_wire(), "sentAt": "2026-12-01T08:00:00"}
    )
    naive_complete = parse_message(
        {**leader(9, "complete").to_wire(), "sentAt": "2026-12-01T08:00:09"}
    )
    assert naive_start.sent_at == T0  # 08:00 in Beijing is midnight UTC
    messages = [naive_start, *ECHO[1:4], naive_complete]
    for order in (messages, list(reversed(messages))):
        facts, outcomes = fold("L", "P", order)
        assert facts.state == "completed", facts.why
        assert all(o is Outcome.APPLIED for o in outcomes.values()), outcomes


@given(st.datetimes(timezones=st.timezones()))
def test_the_sort_key_writes_the_sent_time_as_strftime_does(sent: datetime) -> None:
    """The keys stored as a task's ``last_key`` compare with the ones made now."""
    from app.tasks.projection import sort_key

    try:
        at = sent.astimezone(UTC)
    except OverflowError:  # a local time that is no UTC time
        return
    message = SimpleNamespace(sent_at=sent, sender_id="s", id="m")
    assert sort_key(message) == f"{at.strftime('%Y-%m-%dT%H:%M:%S.%fZ')}|s|m"  # type: ignore[arg-type]
