"""The AIP v2 task state machine (AIP §4.5), as data: who may move a task from where to where."""

from __future__ import annotations

from typing import Literal

from agenthub.protocol.messages import TaskCommandType, TaskState

Role = Literal["leader", "partner"]

FINAL_STATES: frozenset[TaskState] = frozenset(
    {TaskState.COMPLETED, TaskState.FAILED, TaskState.CANCELED, TaskState.REJECTED}
)

# (from state or None for a new task) -> states the partner may report next; from the two
# waits for the leader, the wait timing out (AIP §4.5 rows 11 and 15): the partner's move.
# An accepted task may still be rejected before work on it begins (an acps-sdk partner
# creates its task accepted, then decides)
PARTNER_MOVES: dict[TaskState | None, frozenset[TaskState]] = {
    None: frozenset({TaskState.ACCEPTED, TaskState.REJECTED}),
    TaskState.ACCEPTED: frozenset({TaskState.WORKING, TaskState.REJECTED}),
    TaskState.WORKING: frozenset(
        {TaskState.AWAITING_INPUT, TaskState.AWAITING_COMPLETION, TaskState.FAILED}
    ),
    TaskState.AWAITING_INPUT: frozenset({TaskState.CANCELED}),
    TaskState.AWAITING_COMPLETION: frozenset({TaskState.COMPLETED}),
}

TIMEOUT_MOVES: dict[TaskState, TaskState] = {
    TaskState.AWAITING_INPUT: TaskState.CANCELED,
    TaskState.AWAITING_COMPLETION: TaskState.COMPLETED,
}
"""Where a task waiting for its leader goes when the wait times out (AIP §4.5)."""

# (from state, leader command) -> the state the command moves the task to
LEADER_MOVES: dict[tuple[TaskState, TaskCommandType], TaskState] = {
    (TaskState.ACCEPTED, TaskCommandType.CANCEL): TaskState.CANCELED,
    (TaskState.WORKING, TaskCommandType.CANCEL): TaskState.CANCELED,
    (TaskState.AWAITING_INPUT, TaskCommandType.CONTINUE): TaskState.WORKING,
    (TaskState.AWAITING_INPUT, TaskCommandType.CANCEL): TaskState.CANCELED,
    (TaskState.AWAITING_COMPLETION, TaskCommandType.COMPLETE): TaskState.COMPLETED,
    (TaskState.AWAITING_COMPLETION, TaskCommandType.CONTINUE): TaskState.WORKING,
    (TaskState.AWAITING_COMPLETION, TaskCommandType.CANCEL): TaskState.CANCELED,
}


def is_final(state: TaskState | None) -> bool:
    return state in FINAL_STATES


def partner_may_report(current: TaskState | None, new: TaskState) -> bool:
    """Whether the partner may move a task from ``current`` to ``new``.

    Reporting the current state again is progress information and always allowed
    unless the task is final.
    """
    if current is not None and new == current:
        return not is_final(current)
    return new in PARTNER_MOVES.get(current, frozenset())


def leader_command_target(current: TaskState | None, command: TaskCommandType) -> TaskState | None:
    """The state a leader command moves the task to, or None if the table forbids it."""
    if current is None:
        return None
    return LEADER_MOVES.get((current, command))
