from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.task_state import TaskState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.file_data_item import FileDataItem
  from ..models.gbz_data_item import GbzDataItem
  from ..models.structured_data_item import StructuredDataItem
  from ..models.text_data_item import TextDataItem





T = TypeVar("T", bound="TaskStatus")



@_attrs_define
class TaskStatus:
    """ 
        Attributes:
            state (TaskState):
            state_changed_at (datetime.datetime):
            data_items (list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset):
     """

    state: TaskState
    state_changed_at: datetime.datetime
    data_items: list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        state = self.state.value

        state_changed_at = self.state_changed_at.isoformat()

        data_items: list[dict[str, Any]] | None | Unset
        if isinstance(self.data_items, Unset):
            data_items = UNSET
        elif isinstance(self.data_items, list):
            data_items = []
            for data_items_type_0_item_data in self.data_items:
                data_items_type_0_item: dict[str, Any]
                if isinstance(data_items_type_0_item_data, TextDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                elif isinstance(data_items_type_0_item_data, FileDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                elif isinstance(data_items_type_0_item_data, StructuredDataItem):
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()
                else:
                    data_items_type_0_item = data_items_type_0_item_data.to_dict()

                data_items.append(data_items_type_0_item)


        else:
            data_items = self.data_items


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "state": state,
            "stateChangedAt": state_changed_at,
        })
        if data_items is not UNSET:
            field_dict["dataItems"] = data_items

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        d = dict(src_dict)
        state = TaskState(d.pop("state"))




        state_changed_at = datetime.datetime.fromisoformat(d.pop("stateChangedAt"))




        def _parse_data_items(data: object) -> list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                data_items_type_0 = []
                _data_items_type_0 = data
                for data_items_type_0_item_data in (_data_items_type_0):
                    def _parse_data_items_type_0_item(data: object) -> FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_0 = TextDataItem.from_dict(data)



                            return data_items_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_1 = FileDataItem.from_dict(data)



                            return data_items_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            data_items_type_0_item_type_2 = StructuredDataItem.from_dict(data)



                            return data_items_type_0_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        data_items_type_0_item_type_3 = GbzDataItem.from_dict(data)



                        return data_items_type_0_item_type_3

                    data_items_type_0_item = _parse_data_items_type_0_item(data_items_type_0_item_data)

                    data_items_type_0.append(data_items_type_0_item)

                return data_items_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem] | None | Unset, data)

        data_items = _parse_data_items(d.pop("dataItems", UNSET))


        task_status = cls(
            state=state,
            state_changed_at=state_changed_at,
            data_items=data_items,
        )

        return task_status

