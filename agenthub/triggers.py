"""GB/Z 185.6 Annex B.4 task subscription: a task that starts when its trigger fires.

A :class:`Trigger` is a time, or an event in the session: a task at the hub reaching a state
or holding a product (so not only a task's completion: a partial product while it still
works fires it too). Both forms of the annex:

* A watches and then sends: :func:`subscribe` runs ``then`` once the trigger fires.
* A sends the task with its condition and B watches: :func:`start_when` sends it (the trigger
  in the start's ``commandParams``); B's handler, wrapped in :class:`Subscribed`, accepts it at
  once, waits, then does the work.

Tasks are watched in the hub's record (``GET /v1/tasks/{id}``, readable by everyone who
takes part in the session), so the watched task may be anyone's and the watcher needs no
call to its partner. B reads it with its own credentials, so it watches only in a session
of the leader that asks (the session's sender), and only that session's task of that id:
else any leader could learn through B how another session's task fares.

A watch reads less often while the record stays as it was (``agenthub.lanes.Backoff``),
takes a 429 or a 5xx as "not now", fails once the task was missing too many reads in a
row, and one ``Subscribed`` partner keeps at most ``MAX_WATCHES`` tasks waiting.

Errors: ``KitError`` → ``WatchedTaskMissing`` (the hub never showed the watched task).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx

from agenthub.errors import KitError
from agenthub.hub import HubClient
from agenthub.lanes import Backoff, problem_of, transient
from agenthub.leader import Leader
from agenthub.partner import TaskContext, TaskHandler
from agenthub.paths import segment

T = TypeVar("T")

TRIGGER_PARAM = "trigger"
"""The ``commandParams`` key of a start that carries its trigger."""
POLL_SECONDS = 0.2
"""The first pause between two reads of a watched task's record at the hub."""
MAX_POLL_SECONDS = 3.0
"""The longest pause: it doubles while the record stays as it was, so a thousand waiting
tasks read the hub some 300 times a second, not 5000 (a fixed 0.2 s)."""
MAX_MISSING_READS = 100
"""Reads in a row that find no such task (404) before the watch fails (some 5 minutes): a
task never started must not keep a watch reading for an hour."""
MAX_WATCHES = 64
"""Tasks one ``Subscribed`` partner keeps waiting for their trigger; a start past it is
rejected (each watch reads the hub under the partner's own name)."""
MAX_WAIT_SECONDS = 3600.0
"""How long a partner waits for a trigger before it fails the task."""

TaskTest = Callable[[dict[str, Any]], bool]


class WatchedTaskMissing(KitError):
    """The watched task was not at the hub (404) for ``MAX_MISSING_READS`` reads in a row."""


@dataclass(frozen=True)
class Trigger:
    """Fires at ``at``, or when the hub's record of ``task_id`` matches every condition
    given: its state is one of ``states``; it holds a product ``product_id``; ``test`` (a
    predicate over the record, for A's own watching only: it does not travel)."""

    at: datetime | None = None
    task_id: str | None = None
    states: frozenset[str] = frozenset()
    product_id: str | None = None
    test: TaskTest | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if (self.at is None) == (self.task_id is None):
            raise ValueError("a trigger is a time (at) or a task (task_id), one of the two")
        if self.task_id is not None and not (self.states or self.product_id or self.test):
            raise ValueError("a task trigger needs states, a product_id or a test")

    @classmethod
    def after(cls, seconds: float) -> Trigger:
        return cls(at=datetime.now(UTC) + timedelta(seconds=seconds))

    @classmethod
    def on_task(
        cls,
        task_id: str,
        *,
        states: set[str] | frozenset[str] | None = None,
        product_id: str | None = None,
        test: TaskTest | None = None,
    ) -> Trigger:
        return cls(
            task_id=task_id, states=frozenset(states or ()), product_id=product_id, test=test
        )

    def to_wire(self) -> dict[str, Any]:
        if self.test is not None:
            raise KitError("a trigger with a test is watched by its leader: it does not travel")
        if self.at is not None:
            return {"at": self.at.isoformat()}
        wire: dict[str, Any] = {"taskId": self.task_id}
        if self.states:
            wire["states"] = sorted(self.states)
        if self.product_id:
            wire["productId"] = self.product_id
        return wire

    @classmethod
    def from_wire(cls, wire: Any) -> Trigger:
        """The trigger a start carried; ``ValueError`` for one that is not."""
        if not isinstance(wire, dict):
            raise ValueError("the trigger is not an object")
        if "at" in wire:
            at = datetime.fromisoformat(str(wire["at"]))
            return cls(at=at if at.tzinfo else at.replace(tzinfo=UTC))
        if not wire.get("taskId"):
            raise ValueError("a trigger names a time (at) or a task (taskId)")
        states = wire.get("states") or []
        if not isinstance(states, list):
            raise ValueError("states is not a list")
        product = wire.get("productId")
        return cls.on_task(
            str(wire.get("taskId") or ""), states=set(map(str, states)), product_id=product
        )

    def __str__(self) -> str:
        if self.at is not None:
            return f"time {self.at.isoformat()}"
        parts = [f"state in {sorted(self.states)}"] if self.states else []
        parts += [f"product {self.product_id}"] if self.product_id else []
        parts += ["a test"] if self.test else []
        return f"task {self.task_id}: " + " and ".join(parts)

    def matches(self, record: dict[str, Any]) -> bool:
        """Whether a task's hub record (a TaskView) fires this trigger."""
        if self.states and record.get("state") not in self.states:
            return False
        products = {p.get("id") for p in record.get("products") or []}
        if self.product_id and self.product_id not in products:
            return False
        return self.test is None or self.test(record)

    async def wait(
        self,
        hub: HubClient | None,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
        poll_seconds: float = POLL_SECONDS,
    ) -> dict[str, Any] | None:
        """Until the trigger fires: the task record that fired it (None for a time).

        ``TimeoutError`` past ``timeout``.
        """
        async with asyncio.timeout(timeout):
            if self.at is not None:
                await asyncio.sleep(max(0.0, (self.at - datetime.now(UTC)).total_seconds()))
                return None
            if hub is None:
                raise KitError("watching a task needs a hub client")
            retry = Backoff(poll_seconds, max(poll_seconds, MAX_POLL_SECONDS)).start()
            seen: dict[str, Any] | None = None
            missing = 0
            while True:
                record, status = await _record(hub, str(self.task_id), session_id)
                if record is not None and self.matches(record):
                    return record
                missing = missing + 1 if status == 404 else 0
                if missing >= MAX_MISSING_READS:
                    raise WatchedTaskMissing(f"no task {self.task_id} in {missing} reads")
                if record is not None and record != seen:  # it moves: look again soon
                    seen = record
                    retry.reset()
                await retry.pause()


async def _record(
    hub: HubClient, task_id: str, session_id: str | None
) -> tuple[dict[str, Any] | None, int | None]:
    """The hub's record of the task and the answer's status; no record while the hub has
    none (404: its records trail) or is away or busy for a moment (no answer, a 5xx, a 429:
    a watch may last an hour, a blip must not end it)."""
    params = {"sessionId": session_id} if session_id else None
    try:
        response = await hub.request("GET", f"/v1/tasks/{segment(task_id)}", params=params)
    except httpx.TransportError:
        return None, None
    if response.status_code == 404 or transient(response.status_code, problem_of(response)):
        return None, response.status_code
    return dict(hub.raise_or_json(response)), response.status_code


def subscribe(
    leader: Leader,
    when: Trigger,
    then: Callable[[dict[str, Any] | None], Awaitable[T]],
    *,
    session_id: str | None = None,
    timeout: float | None = None,
) -> asyncio.Task[T]:
    """Annex B.4, A watches: once ``when`` fires, ``then(record)`` (typically a start at B)
    runs; the asyncio task is the subscription: await it for ``then``'s result, cancel it to
    unsubscribe."""

    async def watch() -> T:
        fired = await when.wait(leader.hub, session_id=session_id, timeout=timeout)
        return await then(fired)

    return asyncio.create_task(watch(), name=f"agenthub-subscription {when}")


async def start_when(
    leader: Leader,
    partner_id: str,
    trigger: Trigger,
    *,
    session_id: str,
    text: str | None = None,
    task_id: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Annex B.4, B watches: start the task with its trigger. A :class:`Subscribed` partner
    answers ``accepted`` and does the work once the trigger fires; the rpc answer comes when
    the task settles, or after the partner's rpc wait with the state it is in."""
    return await leader.start(
        partner_id,
        session_id=session_id,
        text=text,
        task_id=task_id,
        params={TRIGGER_PARAM: trigger.to_wire()},
        **extra,
    )


class Subscribed(TaskHandler):
    """A handler whose tasks may carry a trigger: such a task is accepted at once, waits for
    its trigger (watched at ``hub``: the agent's own client, set once the agent exists), and
    then goes to ``inner`` as if it had just been started (accepted already: a handler that
    would reject it then fails it). Other tasks go straight to ``inner``.

    A trigger on a task is taken only in the start's session, and only if that session is
    the calling leader's own (its sender, as the hub shows it); at most ``max_watches``
    tasks wait at a time."""

    def __init__(
        self, inner: TaskHandler, *, hub: HubClient | None = None, max_watches: int = MAX_WATCHES
    ) -> None:
        self.inner = inner
        self.hub = hub
        self.max_wait_seconds = MAX_WAIT_SECONDS
        self.max_watches = max_watches
        self.watching = 0

    async def on_start(self, task: TaskContext) -> None:
        wire = (task.command.command_params or {}).get(TRIGGER_PARAM)
        if wire is None:
            await self.inner.on_start(task)
            return
        try:
            trigger = Trigger.from_wire(wire)
        except ValueError as exc:
            await task.reject(f"the trigger is not one this agent knows: {exc}")
            return
        if self.watching >= self.max_watches:
            await task.reject(f"{self.watching} tasks wait for their trigger here: start it later")
            return
        self.watching += 1  # before any await: the cap holds for starts side by side
        try:
            fired = await self._wait(task, trigger)
        finally:
            self.watching -= 1
        if fired:
            await self.inner.on_start(task)

    async def _wait(self, task: TaskContext, trigger: Trigger) -> bool:
        """Accept the task and wait for its trigger; False if the task ended meanwhile."""
        if trigger.task_id is not None:
            why = await self._why_not_watched(task)
            if why is not None:
                await task.reject(why)
                return False
        await task.accept(f"waiting for {trigger}")
        started = time.monotonic()
        try:
            await trigger.wait(self.hub, session_id=task.session_id, timeout=self.max_wait_seconds)
        except TimeoutError:
            waited = round(time.monotonic() - started)
            await task.fail(f"the trigger ({trigger}) did not fire within {waited} s")
            return False
        except WatchedTaskMissing:
            await task.fail(f"the trigger's task {trigger.task_id} is not in this session")
            return False
        return True

    async def _why_not_watched(self, task: TaskContext) -> str | None:
        """Why this agent may not watch a task for this start, or None: the hub must show
        the start's session as the calling leader's own."""
        if self.hub is None:
            return "this agent cannot watch tasks (it has no hub client)"
        if task.session_id is None:
            return "a trigger on a task needs the start's session: the task is read in it"
        try:
            response = await self.hub.request("GET", f"/v1/sessions/{segment(task.session_id)}")
        except httpx.TransportError as exc:
            return f"the hub could not show the session ({type(exc).__name__}): start it later"
        if response.status_code == 404:
            return "the session is not one this agent takes part in"
        if response.status_code != 200:
            return f"the hub did not show the session (HTTP {response.status_code})"
        try:
            sender = (response.json().get("sender") or {}).get("agentId")
        except (ValueError, AttributeError):
            return "the hub's answer about the session is no session"
        if sender != task.leader_id:
            return "the session is not this leader's: a trigger is watched in its own session"
        return None

    async def on_continue(self, task: TaskContext) -> None:
        await self.inner.on_continue(task)

    async def on_cancel(self, task: TaskContext) -> None:
        await self.inner.on_cancel(task)

    async def on_complete(self, task: TaskContext) -> None:
        await self.inner.on_complete(task)
