"""One task from start to its end in one call (``Leader.run``): start it, wait while the
partner works, answer its questions when given a way to, and complete it when the partner
hands in its work.

Why a helper: in AIP a partner never ends a task it did well by itself. It stops at
``awaiting-completion`` with its products, and the task is ``completed`` only when its
leader says ``complete`` (or when that wait times out at the partner). ``Leader.start``
therefore answers at most the leader's turn, and the leader has to call ``complete``; a
leader that wants to look at the products first, send the work back (``continue_task``) or
decline it (``cancel``) keeps doing that. ``run`` is for a leader that takes what it gets.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from agenthub.lanes import Backoff
from agenthub.protocol.messages import TaskCommand, TaskState
from agenthub.results import TaskAnswer

FIRST_LOOK_SECONDS = 0.2
MOST_LOOK_SECONDS = 5.0
"""While a task is still at work past the partner's rpc wait, ``run`` asks for its state
(``get``, not recorded at the hub) after 0.2 s, then twice as long each time, up to 5 s."""
RUN_WAIT_SECONDS = 600.0
"""How long ``run`` waits, by default, for a task the partner is still working on."""

AT_WORK = frozenset({TaskState.ACCEPTED, TaskState.WORKING})

Answerer = Callable[[TaskAnswer], Awaitable[str]]
"""Given a task awaiting input (its question is ``answer.text``), the leader's reply."""


class TaskCalls(Protocol):
    """What ``run_task`` needs of a leader (``agenthub.leader.Leader`` is one)."""

    async def start(
        self, partner_id: str, *, session_id: str, text: str | None = ..., **extra: Any
    ) -> TaskAnswer: ...

    async def continue_task(
        self, partner_id: str, *, session_id: str, task_id: str, text: str | None = ...
    ) -> TaskAnswer: ...

    async def complete(self, partner_id: str, *, session_id: str, task_id: str) -> TaskAnswer: ...

    def command(
        self, name: str, *, session_id: str, task_id: str | None = ..., **extra: Any
    ) -> TaskCommand: ...

    async def send(
        self, partner_id: str, command: TaskCommand, *, record: bool = ..., method: str = ...
    ) -> TaskAnswer: ...


async def _settled(
    leader: TaskCalls, partner_id: str, answer: TaskAnswer, session_id: str, wait: float
) -> TaskAnswer:
    """The task once it is no longer at work (or, after ``wait`` seconds, as it is then)."""
    retry = Backoff(FIRST_LOOK_SECONDS, MOST_LOOK_SECONDS, deadline=wait).start()
    while answer.state in AT_WORK and await retry.pause():
        look = leader.command("get", session_id=session_id, task_id=answer.id)
        answer = await leader.send(partner_id, look, record=False)
    return answer


async def run_task(
    leader: TaskCalls,
    partner_id: str,
    *,
    session_id: str,
    text: str | None = None,
    on_input: Answerer | None = None,
    wait_seconds: float = RUN_WAIT_SECONDS,
    **start: Any,
) -> TaskAnswer:
    """Start the task and follow it to the end; its last answer. See ``Leader.run``."""
    answer = await leader.start(partner_id, session_id=session_id, text=text, **start)
    while True:
        answer = await _settled(leader, partner_id, answer, session_id, wait_seconds)
        if answer.state is TaskState.AWAITING_COMPLETION:
            return await leader.complete(partner_id, session_id=session_id, task_id=answer.id)
        if answer.state is not TaskState.AWAITING_INPUT or on_input is None:
            return answer  # ended, or a question nobody here answers, or still at work
        reply = await on_input(answer)
        answer = await leader.continue_task(
            partner_id, session_id=session_id, task_id=answer.id, text=reply
        )
