from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bridge_caller import BridgeCaller
  from ..models.message import Message
  from ..models.product_chunk import ProductChunk
  from ..models.task_command import TaskCommand
  from ..models.task_result import TaskResult
  from ..models.task_status_update import TaskStatusUpdate





T = TypeVar("T", bound="MessagePage")



@_attrs_define
class MessagePage:
    """ 
        Attributes:
            items (list[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate]):
            caller (BridgeCaller | None | Unset): a bridge session's messages: who called through the bridge, an agent or an
                application (its leader's commands here are recorded on that caller's behalf)
            next_cursor (None | str | Unset):
     """

    items: list[Message | ProductChunk | TaskCommand | TaskResult | TaskStatusUpdate]
    caller: BridgeCaller | None | Unset = UNSET
    next_cursor: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
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



        caller: dict[str, Any] | None | Unset
        if isinstance(self.caller, Unset):
            caller = UNSET
        elif isinstance(self.caller, BridgeCaller):
            caller = self.caller.to_dict()
        else:
            caller = self.caller

        next_cursor: None | str | Unset
        if isinstance(self.next_cursor, Unset):
            next_cursor = UNSET
        else:
            next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })
        if caller is not UNSET:
            field_dict["caller"] = caller
        if next_cursor is not UNSET:
            field_dict["nextCursor"] = next_cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        from ..models.message import Message # noqa: PLC0415
        from ..models.product_chunk import ProductChunk # noqa: PLC0415
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


        def _parse_caller(data: object) -> BridgeCaller | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                caller_type_0 = BridgeCaller.from_dict(data)



                return caller_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BridgeCaller | None | Unset, data)

        caller = _parse_caller(d.pop("caller", UNSET))


        def _parse_next_cursor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor", UNSET))


        message_page = cls(
            items=items,
            caller=caller,
            next_cursor=next_cursor,
        )

        return message_page

