"""What a transaction will publish once it commits: the ``Outbox``, and the SSE frames it
carries.

An event is written inside the caller's transaction and *staged* in that transaction's
``Outbox``; it reaches the broker only after that transaction commits, published by whoever
owns the transaction (``core.unit_of_work``: the writer's batches, and ``commit`` for the
request path's and the background jobs' ORM sessions), so nothing uncommitted is ever
delivered, and a rolled-back transaction (its session let go) delivers nothing. The nouns
number their own events (``groups.events``, ``inbox.events``) and stage them in one.
"""

from __future__ import annotations

from typing import Any

import orjson

from agenthub.protocol.base import WireModel
from app.broker import Broker, Delivery
from app.core.operator_events import OPERATOR_CHANNEL, message_summary, operator_delivery


def encode_frame(seq: int, kind: str, data: bytes, trace: str | None = None) -> bytes:
    """One SSE frame, built once and shared by every subscriber; ``trace``: the
    ``traceparent`` of the event's publish, as a field of its own (EventSource clients
    ignore fields they do not know)."""
    if trace:
        return b"id: %d\nevent: %s\ntraceparent: %s\ndata: %s\n\n" % (
            seq,
            kind.encode(),
            trace.encode(),
            data,
        )
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, kind.encode(), data)


def message_delivery(
    seq: int, sender_id: str, body: dict[str, Any], trace: str | None = None
) -> Delivery:
    """A stored message's frame (``core.models.StoredMessage``), as its group's streams send it."""
    frame = encode_frame(seq, "message", orjson.dumps(body), trace)
    return Delivery(seq, frame, sender_id=sender_id)


def wire_json(data: WireModel | dict[str, Any]) -> dict[str, Any]:
    """An event's data as stored: a wire model's JSON, or the dict as given."""
    return data.to_wire() if isinstance(data, WireModel) else data


class Outbox:
    """What one transaction will publish once it commits, in the order it was staged.

    The writer's unit of work (``core.unit_of_work``) holds one and publishes it after
    its COMMIT; any other write stages into its ORM session's (``unit_of_work.stage``),
    published by ``unit_of_work.commit`` once that session's transaction commits."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[str, Delivery]] = []

    def stage(self, channel: str, delivery: Delivery) -> None:
        """Deliver on ``channel`` once the transaction commits (nothing, if it rolls back)."""
        self.items.append((channel, delivery))

    def tell_operator(self, kind: str, data: dict[str, Any]) -> None:
        """Tell the operator's stream (``core.operator_events``)."""
        self.stage(OPERATOR_CHANNEL, operator_delivery(kind, data))

    def tell_operator_message(self, body: dict[str, Any]) -> None:
        """A message stored as ``body``, for the operator's stream."""
        self.tell_operator("message", message_summary(body))

    def mark(self) -> int:
        return len(self.items)

    def undo(self, mark: int) -> None:
        """Drop what was staged since ``mark``: a savepoint rolled back."""
        del self.items[mark:]

    def publish(self, broker: Broker | None) -> None:
        """The transaction committed: hand everything staged to the broker, in order."""
        items, self.items = self.items, []
        if broker is not None:
            for channel, delivery in items:
                broker.publish(channel, delivery)
