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
call to its partner.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx

from agenthub.errors import HubRequestError, KitError
from agenthub.hub import HubClient
from agenthub.leader import Leader
from agenthub.partner import TaskContext, TaskHandler
from agenthub.paths import segment

T = TypeVar("T")

TRIGGER_PARAM = "trigger"
"""The ``commandParams`` key of a start that carries its trigger."""
POLL_SECONDS = 0.2
"""How often a watched task's record is read at the hub."""
MAX_WAIT_SECONDS = 3600.0
"""How long a partner waits for a trigger before it fails the task."""

TaskTest = Callable[[dict[str, Any]], bool]


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
            while True:
                record = await _record(hub, str(self.task_id), session_id)
                if record is not None and self.matches(record):
                    return record
                await asyncio.sleep(poll_seconds)


async def _record(hub: HubClient, task_id: str, session_id: str | None) -> dict[str, Any] | None:
    """The hub's record of the task, or None while the hub has none (its records trail) or
    is away for a moment (a watch may last an hour: a blip must not end it)."""
    params = {"sessionId": session_id} if session_id else None
    try:
        response = await hub.request("GET", f"/v1/tasks/{segment(task_id)}", params=params)
        record = hub.raise_or_json(response)
    except httpx.TransportError:
        return None
    except HubRequestError as exc:
        if exc.status == 404 or exc.status >= 500:
            return None
        raise
    return dict(record)


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
    would reject it then fails it). Other tasks go straight to ``inner``."""

    def __init__(self, inner: TaskHandler, *, hub: HubClient | None = None) -> None:
        self.inner = inner
        self.hub = hub
        self.max_wait_seconds = MAX_WAIT_SECONDS

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
        if trigger.task_id is not None and self.hub is None:
            await task.reject("this agent cannot watch tasks (it has no hub client)")
            return
        await task.accept(f"waiting for {trigger}")
        started = time.monotonic()
        try:
            await trigger.wait(self.hub, session_id=task.session_id, timeout=self.max_wait_seconds)
        except TimeoutError:
            waited = round(time.monotonic() - started)
            await task.fail(f"the trigger ({trigger}) did not fire within {waited} s")
            return
        await self.inner.on_start(task)

    async def on_continue(self, task: TaskContext) -> None:
        await self.inner.on_continue(task)

    async def on_cancel(self, task: TaskContext) -> None:
        await self.inner.on_cancel(task)

    async def on_complete(self, task: TaskContext) -> None:
        await self.inner.on_complete(task)
