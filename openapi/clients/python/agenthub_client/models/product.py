from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.file_data_item import FileDataItem
  from ..models.gbz_data_item import GbzDataItem
  from ..models.structured_data_item import StructuredDataItem
  from ..models.text_data_item import TextDataItem





T = TypeVar("T", bound="Product")



@_attrs_define
class Product:
    """ 
        Attributes:
            data_items (list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem]):
            id (str):
            description (None | str | Unset):
            name (None | str | Unset):
     """

    data_items: list[FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem]
    id: str
    description: None | str | Unset = UNSET
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        data_items = []
        for data_items_item_data in self.data_items:
            data_items_item: dict[str, Any]
            if isinstance(data_items_item_data, TextDataItem):
                data_items_item = data_items_item_data.to_dict()
            elif isinstance(data_items_item_data, FileDataItem):
                data_items_item = data_items_item_data.to_dict()
            elif isinstance(data_items_item_data, StructuredDataItem):
                data_items_item = data_items_item_data.to_dict()
            else:
                data_items_item = data_items_item_data.to_dict()

            data_items.append(data_items_item)



        id = self.id

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dataItems": data_items,
            "id": id,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_data_item import FileDataItem # noqa: PLC0415
        from ..models.gbz_data_item import GbzDataItem # noqa: PLC0415
        from ..models.structured_data_item import StructuredDataItem # noqa: PLC0415
        from ..models.text_data_item import TextDataItem # noqa: PLC0415
        d = dict(src_dict)
        data_items = []
        _data_items = d.pop("dataItems")
        for data_items_item_data in (_data_items):
            def _parse_data_items_item(data: object) -> FileDataItem | GbzDataItem | StructuredDataItem | TextDataItem:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    data_items_item_type_0 = TextDataItem.from_dict(data)



                    return data_items_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    data_items_item_type_1 = FileDataItem.from_dict(data)



                    return data_items_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    data_items_item_type_2 = StructuredDataItem.from_dict(data)



                    return data_items_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                data_items_item_type_3 = GbzDataItem.from_dict(data)



                return data_items_item_type_3

            data_items_item = _parse_data_items_item(data_items_item_data)

            data_items.append(data_items_item)


        id = d.pop("id")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        product = cls(
            data_items=data_items,
            id=id,
            description=description,
            name=name,
        )

        return product

