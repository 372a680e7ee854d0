"""AIP ↔ A2A, as data: data items and parts, products and artifacts, task states.

The two protocols' task states differ in one place. AIP's partner ends its work in
``awaiting-completion`` and its leader says ``complete``; A2A has no such wait, and an A2A
agent's ``COMPLETED`` is the end. So:

- an A2A caller of a kit partner sees ``awaiting-completion`` as ``COMPLETED`` (with the
  products as artifacts): the bridge sends ``complete`` on the caller's behalf, and the hub
  records that command as the bridge's (the leader side of a bridged session);
- a kit leader's record of an A2A agent's ``COMPLETED`` is ``awaiting-completion`` with the
  artifacts as products, then its own ``complete``: the hub's task ends ``completed`` by the
  same moves as an AIP task's.

``AUTH_REQUIRED`` has no AIP state: a kit leader reads it as ``awaiting-input``.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from a2a.types import Artifact, Part, TaskState
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.struct_pb2 import Struct, Value

from agenthub.protocol.messages import TaskState as AipState
from agenthub.protocol.tasks import PARTNER_MOVES

_STEPS = frozenset({AipState.ACCEPTED, AipState.WORKING})

A2A_STATE_OF: dict[AipState, TaskState] = {
    AipState.ACCEPTED: TaskState.TASK_STATE_SUBMITTED,
    AipState.WORKING: TaskState.TASK_STATE_WORKING,
    AipState.AWAITING_INPUT: TaskState.TASK_STATE_INPUT_REQUIRED,
    AipState.AWAITING_COMPLETION: TaskState.TASK_STATE_COMPLETED,
    AipState.COMPLETED: TaskState.TASK_STATE_COMPLETED,
    AipState.FAILED: TaskState.TASK_STATE_FAILED,
    AipState.CANCELED: TaskState.TASK_STATE_CANCELED,
    AipState.REJECTED: TaskState.TASK_STATE_REJECTED,
}
"""What an A2A caller sees of each AIP state (``awaiting-completion``: the bridge completes)."""

AIP_STATE_OF: dict[TaskState, AipState] = {
    TaskState.TASK_STATE_SUBMITTED: AipState.ACCEPTED,
    TaskState.TASK_STATE_WORKING: AipState.WORKING,
    TaskState.TASK_STATE_INPUT_REQUIRED: AipState.AWAITING_INPUT,
    TaskState.TASK_STATE_AUTH_REQUIRED: AipState.AWAITING_INPUT,
    TaskState.TASK_STATE_COMPLETED: AipState.AWAITING_COMPLETION,
    TaskState.TASK_STATE_FAILED: AipState.FAILED,
    TaskState.TASK_STATE_CANCELED: AipState.CANCELED,
    TaskState.TASK_STATE_REJECTED: AipState.REJECTED,
}
"""What a kit leader records of each A2A state (``COMPLETED``: awaiting its ``complete``)."""

DataItem = dict[str, Any]


# -- data items and parts ------------------------------------------------------------------


def _struct(values: Mapping[str, Any]) -> Struct:
    struct = Struct()
    struct.update(dict(values))
    return struct


def part_of(item: Mapping[str, Any]) -> Part:
    """An AIP data item (wire dict) as an A2A part."""
    part = Part()
    kind = item.get("type")
    if kind == "text":
        part.text = str(item.get("text", ""))
    elif kind == "file":
        if item.get("bytes") is not None:
            part.raw = base64.b64decode(str(item["bytes"]))
        else:
            part.url = str(item.get("uri") or "")
        if item.get("name"):
            part.filename = str(item["name"])
        if item.get("mimeType"):
            part.media_type = str(item["mimeType"])
    else:
        part.data.CopyFrom(ParseDict(item.get("data", {}), Value()))
        part.media_type = "application/json"
    if item.get("metadata"):
        part.metadata.CopyFrom(_struct(item["metadata"]))
    return part


def parts_of(items: Iterable[Mapping[str, Any]] | None) -> list[Part]:
    return [part_of(item) for item in items or ()]


def item_of(part: Part) -> DataItem:
    """An A2A part as an AIP data item (wire dict): text, file (bytes or uri), data. A data
    part that is no JSON object is kept under ``value``."""
    kind = part.WhichOneof("content")
    item: DataItem
    if kind == "text":
        item = {"type": "text", "text": part.text}
    elif kind in ("raw", "url"):
        item = {"type": "file"}
        if kind == "raw":
            item["bytes"] = base64.b64encode(part.raw).decode()
        else:
            item["uri"] = part.url
        if part.filename:
            item["name"] = part.filename
        if part.media_type:
            item["mimeType"] = part.media_type
    else:
        data = MessageToDict(part.data) if kind == "data" else None
        item = {"type": "data", "data": data if isinstance(data, dict) else {"value": data}}
    if part.HasField("metadata"):
        item["metadata"] = MessageToDict(part.metadata)
    return item


def items_of(parts: Iterable[Part]) -> list[DataItem]:
    return [item_of(part) for part in parts]


def text_of(parts: Iterable[Part]) -> str:
    return "\n".join(part.text for part in parts if part.WhichOneof("content") == "text")


# -- products and artifacts ----------------------------------------------------------------


def artifact_of(product: Mapping[str, Any]) -> Artifact:
    """An AIP product (wire dict) as an A2A artifact: its id, name, description and items."""
    artifact = Artifact(artifact_id=str(product["id"]), parts=parts_of(product.get("dataItems")))
    if product.get("name"):
        artifact.name = str(product["name"])
    if product.get("description"):
        artifact.description = str(product["description"])
    return artifact


def product_of(artifact: Artifact) -> dict[str, Any]:
    """An A2A artifact as an AIP product (wire dict)."""
    product: dict[str, Any] = {"id": artifact.artifact_id, "dataItems": items_of(artifact.parts)}
    if artifact.name:
        product["name"] = artifact.name
    if artifact.description:
        product["description"] = artifact.description
    return product


def products_of(artifacts: Sequence[Artifact]) -> list[dict[str, Any]]:
    return [product_of(a) for a in artifacts if a.parts]


# -- states --------------------------------------------------------------------------------


def aip_path(recorded: AipState | None, target: AipState) -> list[AipState]:
    """The partner moves that take a task from ``recorded`` to ``target``, the steps an A2A
    agent took without saying (``SUBMITTED`` straight to ``COMPLETED``) filled in, through
    ``accepted`` and ``working`` only; empty when ``target`` is where the task is, or cannot
    be reached so (a leader's command moves it there, or it ended)."""
    if recorded == target:
        return []
    frontier: list[tuple[AipState | None, list[AipState]]] = [(recorded, [])]
    seen: set[AipState | None] = {recorded}
    while frontier:
        state, path = frontier.pop(0)
        for step in sorted(PARTNER_MOVES.get(state, frozenset())):
            if step == target:
                return [*path, step]
            if step not in seen and step in _STEPS:
                seen.add(step)
                frontier.append((step, [*path, step]))
    return []
