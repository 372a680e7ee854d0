"""A message as the hub stores it: its body (the sender's wire object and what the hub adds),
its row, and finding it again: the same record retried, or another under an id its sender
used before (a variant)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from pydantic_core import to_jsonable_python
from sqlalchemy import bindparam
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.core.models import StoredMessage
from app.records.errors import (
    UnstorableMessage,
)
from app.tasks.service import (
    AnyTaskMessage,
)

HUB_FIELDS = ("seq", "received_at", "relayed_by", "verified")


_FIND = select(StoredMessage).where(
    col(StoredMessage.sender_id) == bindparam("sender_id"),
    col(StoredMessage.message_id) == bindparam("message_id"),
)


async def find_message(db: AsyncSession, sender_id: str, message_id: str) -> StoredMessage | None:
    params = {"sender_id": sender_id, "message_id": message_id}
    return (await db.exec(_FIND, params=params)).first()


MAX_RECORD_ID = 200  # the ``messages.message_id`` column's length


async def find_record(
    db: AsyncSession,
    sender_id: str,
    message: AnyTaskMessage,
    *,
    session_id: str,
    group_id: str | None = None,
    record_id: str | None = None,
) -> tuple[StoredMessage | None, str]:
    """The stored record ``message`` repeats, if any, and the id it is recorded under
    (``record_id``: the id its sender's records are kept under, when not its own: an
    unsigned relay's, ``answers.relayed_ids``).

    A record is its sender, its id **and its content**: the same message again is the
    record stored before (a retry), and another message under an id the sender used in
    the same place is a record of its own, kept under a *variant id* made from its content
    (``variant_id``). acps-sdk's ``TaskManager`` answers every command of a task with one
    mutated ``TaskResult``, so each answer of a task carries the same id: each distinct one
    is recorded, the same one again is not. An id used elsewhere (another session or group)
    is returned as found, for the caller's 409."""
    record_id = record_id or message.id
    existing = await find_message(db, sender_id, record_id)
    if existing is None or same_content(existing, message):
        return existing, record_id
    if (existing.session_id, existing.group_id) != (session_id, group_id):
        return existing, record_id
    variant = variant_id(message, record_id)
    return await find_message(db, sender_id, variant), variant


_SET_BY_HUB = ("receivedAt", "seq", "relayedBy", "verified")


def same_content(existing: StoredMessage, message: AnyTaskMessage) -> bool:
    """Whether ``message`` is the one stored as ``existing``: placed where it was, the
    stored body, but for what the hub set when it stored it."""
    at = Placement(
        existing.session_id,
        existing.received_at,
        existing.task_id,
        existing.group_id,
        existing.seq,
    )
    again = stored_body(message, at)
    stored = existing.body
    return all(again.get(k) == stored.get(k) for k in {*again, *stored} - set(_SET_BY_HUB))


_PLACE = ("sessionId", "groupId")  # checked apart: a variant is of the same place


def variant_id(message: AnyTaskMessage, record_id: str | None = None) -> str:
    """The id a message is recorded under when its sender used its id (``record_id``, when
    its records are kept under another) for other content: the id and a digest of the
    content (what ``same_content`` compares: not what the hub sets, so a partner's own
    post and its leader's signed relay of it are one record), or a digest of both when that
    would not fit."""
    content = {k: v for k, v in message.to_wire().items() if k not in (*_SET_BY_HUB, *_PLACE)}
    wire = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.sha256(wire).hexdigest()
    used = record_id or message.id
    variant = f"{used}~{digest[:16]}"
    if len(variant) <= MAX_RECORD_ID:
        return variant
    return "~" + hashlib.sha256(f"{used}~{digest}".encode()).hexdigest()


@dataclass(frozen=True)
class Placement:
    """Where and when the hub stores a message: what it adds to the sender's wire object."""

    session_id: str
    received_at: datetime
    task_id: str | None = None
    group_id: str | None = None
    seq: int | None = None
    trace: str | None = None  # the recording span's traceparent (``agenthub.tracing``)


def stored_body(
    message: AnyTaskMessage, at: Placement, wire: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The message as the hub keeps and serves it: what the hub adds is in the body too.
    ``wire``: the message's ``to_wire()``, when the caller has it already.

    What ``message.model_copy(update=<the placement>).to_wire()`` gives, keys in the
    model's order, without the copy (and, given ``wire``, without serializing it again)."""
    placed: dict[str, Any] = {
        "sessionId": at.session_id,
        "receivedAt": to_jsonable_python(at.received_at),
    }
    if at.task_id is not None:
        placed["taskId"] = at.task_id
    if at.group_id is not None:
        placed["groupId"] = at.group_id
        placed["seq"] = at.seq
    merged = {**(message.to_wire() if wire is None else wire), **placed}
    order = _wire_order(type(message))
    return encodable({k: merged[k] for k in order if merged.get(k) is not None})


_WIRE_ORDERS: dict[type[Any], tuple[str, ...]] = {}


def _wire_order(kind: type[AnyTaskMessage]) -> tuple[str, ...]:
    """The wire names of a message class's fields, in the order it serializes them."""
    order = _WIRE_ORDERS.get(kind)
    if order is None:
        fields = kind.model_fields.items()
        order = _WIRE_ORDERS[kind] = tuple(f.alias or name for name, f in fields)
    return order


def received_wire(wire: dict[str, Any]) -> dict[str, Any]:
    """A message's wire object without what only the hub sets (``as_received``'s)."""
    return {k: v for k, v in wire.items() if k not in _SET_BY_HUB}


def encodable(body: dict[str, Any]) -> dict[str, Any]:
    """``body``, if it encodes as JSON: it is stored, framed and served so. Validation
    refuses what cannot be (see ``agenthub.protocol.base.json_problem``); this makes sure
    nothing else slips into a row that every later read would fail on."""
    try:
        orjson.dumps(body)
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise UnstorableMessage(f"The message cannot be stored as JSON: {exc}.") from exc
    return body


def stored_row(message: AnyTaskMessage, body: dict[str, Any], at: Placement) -> dict[str, Any]:
    """The ``messages`` row for ``message`` stored as ``body``."""
    return {
        "message_id": message.id,
        "sender_id": message.sender_id,
        "session_id": at.session_id,
        "group_id": at.group_id,
        "task_id": at.task_id,
        "type": message.type,
        "seq": at.seq,
        "body": body,
        "received_at": at.received_at,
        "waiting": False,
        "trace_context": at.trace,
    }
