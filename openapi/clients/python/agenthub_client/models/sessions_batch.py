from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.message import Message
  from ..models.product_chunk import ProductChunk
  from ..models.sessions_batch_bridges import SessionsBatchBridges
  from ..models.task_command import TaskCommand
  from ..models.task_result import TaskResult
  from ..models.task_status_update import TaskStatusUpdate





T = TypeVar("T", bound="SessionsBatch")



@_attrs_define
class SessionsBatch:
    """ Messages of any of the caller's sessions to record in one request, each in the
    session its ``sessionId`` names (``POST /v1/sessions/messages:batch``).

        Attributes:
            items (list[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate]):
            bridges (SessionsBatchBridges | Unset): bridge sessions of the caller's, by id (each the `sessionId` of an
                item): each opened first, as `POST /v1/sessions` opens it, unless a session with that id is there already
     """

    items: list[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate]
    bridges: SessionsBatchBridges | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
        from ..models.sessions_batch_bridges import SessionsBatchBridges # noqa: PLC0415
        from ..models.task_command import TaskCommand # noqa: PLC0415
        from ..models.task_result import TaskResult # noqa: PLC0415
        from ..models.task_status_update import TaskStatusUpdate # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if isinstance(items_item_data, Message):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TaskCommand):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TaskResult):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, TaskStatusUpdate):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data.to_dict()

            items.append(items_item)



        bridges: dict[str, Any] | Unset = UNSET
        if not isinstance(self.bridges, Unset):
            bridges = self.bridges.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })
        if bridges is not UNSET:
            field_dict["bridges"] = bridges

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
        from ..models.sessions_batch_bridges import SessionsBatchBridges # noqa: PLC0415
        from ..models.task_command import TaskCommand # noqa: PLC0415
        from ..models.task_result import TaskResult # noqa: PLC0415
        from ..models.task_status_update import TaskStatusUpdate # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            def _parse_items_item(data: object) -> Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    items_item_type_0 = Message.from_dict(data)



                    return items_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    items_item_type_1 = TaskCommand.from_dict(data)



                    return items_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    items_item_type_2 = TaskResult.from_dict(data)



                    return items_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    items_item_type_3 = TaskStatusUpdate.from_dict(data)



                    return items_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                items_item_type_4 = ProductChunk.from_dict(data)



                return items_item_type_4

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)


        _bridges = d.pop("bridges", UNSET)
        bridges: SessionsBatchBridges | Unset
        if isinstance(_bridges,  Unset):
            bridges = UNSET
        else:
            bridges = SessionsBatchBridges.from_dict(_bridges)




        sessions_batch = cls(
            items=items,
            bridges=bridges,
        )

        return sessions_batch

