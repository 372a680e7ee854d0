"""What a leader's calls answer, typed: a task as its partner reports it (``TaskAnswer``) and
each event of a task's stream (``TaskEvent`` and its kinds).

Each is the partner's JSON itself (a ``dict`` subclass: item access, ``==``, ``json.dumps``
and ``orjson.dumps`` see exactly the JSON the partner sent, as before these types existed),
with typed properties over it. The properties read the JSON when asked; a field that is not
AIP (a partner that sends no state, a product that is no AIP product) is ``CallFailed`` then,
so an answer that only item access reads behaves as it always did.

``text`` is one rule everywhere (the same as ``agenthub.patterns.Outcome.text``): the text
data items of the products, in order, one a line; when the products hold no text, those of
the status (a question in ``awaiting-input``, a reason in ``failed`` or ``rejected``); else
the empty string. File and structured items are never part of it: read ``products``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from agenthub.errors import CallFailed
from agenthub.protocol.messages import Product, TaskState
from agenthub.protocol.tasks import FINAL_STATES


def _texts(items: Iterable[Any]) -> list[str]:
    return [
        i["text"]
        for i in items
        if isinstance(i, dict) and i.get("type") == "text" and isinstance(i.get("text"), str)
    ]


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _state(payload: dict[str, Any]) -> TaskState:
    raw = _dict(payload.get("status")).get("state")
    try:
        return TaskState(str(raw))
    except ValueError:
        raise CallFailed(f"The answer's task state {raw!r} is not an AIP state.") from None


def _product(raw: Any) -> Product:
    try:
        return Product.model_validate(raw)
    except ValidationError as exc:
        raise CallFailed(f"The answer carries a product that is not AIP's: {exc}") from exc


def _text(payload: dict[str, Any]) -> str:
    products = _list(payload.get("products"))
    found = _texts(i for p in products for i in _list(_dict(p).get("dataItems")))
    found = found or _texts(_list(_dict(payload.get("status")).get("dataItems")))
    return "\n".join(found)


class TaskAnswer(dict[str, Any]):
    """A partner's answer about one task (AIP ``TaskResult``): what ``Leader.start``,
    ``continue_task``, ``complete``, ``cancel``, ``get`` and ``run`` return.

    Item access is the raw JSON (camelCase, as the partner sent it), kept for compatibility:
    ``answer["status"]["state"]`` still reads what ``answer.state`` gives typed. ``raw`` is
    that JSON as a plain dict.
    """

    @property
    def raw(self) -> dict[str, Any]:
        """The partner's JSON as a plain ``dict`` (a shallow copy)."""
        return dict(self)

    @property
    def id(self) -> str:
        """The task's id (``taskId``)."""
        return str(self.get("taskId", ""))

    @property
    def state(self) -> TaskState:
        """The task's state (``status.state``). ``awaiting-completion`` is the leader's turn:
        the task is done at its partner, and only the leader's ``complete`` (or ``run``)
        makes it ``completed``; ``awaiting-input`` waits for the leader's ``continue``."""
        return _state(self)

    @property
    def final(self) -> bool:
        """Whether the task has ended: completed, failed, canceled or rejected."""
        return self.state in FINAL_STATES

    @property
    def products(self) -> list[Product]:
        """The task's products (none: an empty list), as the protocol's ``Product``."""
        return [_product(p) for p in _list(self.get("products"))]

    @property
    def text(self) -> str:
        """The answer's text: the products' text items, one a line; with none, the status's
        (a question, a reason); else ``""`` (the module docstring has the whole rule)."""
        return _text(self)

    @property
    def status_text(self) -> str:
        """The text items of the status alone (the partner's last words on the state)."""
        return "\n".join(_texts(_list(_dict(self.get("status")).get("dataItems"))))

    @property
    def sender_id(self) -> str:
        """The partner that answered (``senderId``)."""
        return str(self.get("senderId", ""))


class TaskEvent(dict[str, Any]):
    """One event of a task's stream, ``{"eventSeq": n, "eventData": {...}}`` (AIP 6.2): what
    ``Leader.start_streaming``, ``resume_stream`` and ``stream`` yield.

    Item access is the raw JSON, kept for compatibility (``event["eventData"]["status"]``).
    Its kind is its class, so ``isinstance`` tells them apart: ``ResultEvent`` (the task
    moved to a state: the whole task as it stands), ``StatusEvent`` (progress in the state
    the task is in), ``ProductEvent`` (a product or a part of one); an event of any other
    ``type`` is a plain ``TaskEvent``. ``task_event`` makes the right one of a raw event.
    """

    @property
    def raw(self) -> dict[str, Any]:
        """The event's JSON as a plain ``dict`` (a shallow copy)."""
        return dict(self)

    @property
    def seq(self) -> int:
        """The event's ``eventSeq``: resume a dropped stream after the last one seen
        (``Leader.resume_stream(..., last_event_seq=seq)``)."""
        seq = self.get("eventSeq")
        return seq if isinstance(seq, int) else 0

    @property
    def data(self) -> dict[str, Any]:
        """The event's message (``eventData``), raw."""
        return _dict(self.get("eventData"))

    @property
    def kind(self) -> str:
        """The message's ``type``: ``task-status-update``, ``product-chunk``, ``task-result``."""
        return str(self.data.get("type", ""))

    @property
    def task_id(self) -> str:
        return str(self.data.get("taskId", ""))

    @property
    def state(self) -> TaskState | None:
        """The task's state the event reports; None for an event that reports none."""
        return _state(self.data) if "status" in self.data else None

    @property
    def text(self) -> str:
        """The event's text, by ``TaskAnswer.text``'s rule (its product's, else its status's)."""
        data = self.data
        product = data.get("product")
        return _text({**data, "products": [product]} if product is not None else data)


class StatusEvent(TaskEvent):
    """Progress: the partner reports on the task in the state it is in (AIP
    ``TaskStatusUpdate``); ``text`` is what it said."""

    @property
    def state(self) -> TaskState:
        return _state(self.data)


class ProductEvent(TaskEvent):
    """A product, or a part of one (AIP ``ProductChunk``): with ``append``, its data items
    go after those of the product of the same id received before."""

    @property
    def product(self) -> Product:
        return _product(self.data.get("product"))

    @property
    def append(self) -> bool:
        return self.data.get("append") is True

    @property
    def last_chunk(self) -> bool:
        return self.data.get("lastChunk") is True


class ResultEvent(TaskEvent):
    """The task moved to a state (AIP ``TaskResult``, sent at every move, and first in a
    stream after ``continue``): the whole task as it stands, its products so far included
    (``result``); ``text`` is ``result.text``."""

    @property
    def state(self) -> TaskState:
        return _state(self.data)

    @property
    def result(self) -> TaskAnswer:
        return TaskAnswer(self.data)


_EVENT_KINDS: dict[str, type[TaskEvent]] = {
    "task-status-update": StatusEvent,
    "product-chunk": ProductEvent,
    "task-result": ResultEvent,
}


def task_event(raw: dict[str, Any]) -> TaskEvent:
    """The typed event of a raw ``{eventSeq, eventData}``, by its message's ``type``."""
    kind = _dict(raw.get("eventData")).get("type")
    return _EVENT_KINDS.get(kind if isinstance(kind, str) else "", TaskEvent)(raw)


__all__ = [
    "ProductEvent",
    "ResultEvent",
    "StatusEvent",
    "TaskAnswer",
    "TaskEvent",
    "task_event",
]
