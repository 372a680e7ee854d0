from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.structured_data_item_data import StructuredDataItemData
  from ..models.structured_data_item_metadata_type_0 import StructuredDataItemMetadataType0





T = TypeVar("T", bound="StructuredDataItem")



@_attrs_define
class StructuredDataItem:
    """ 
        Attributes:
            data (StructuredDataItemData):
            type_ (Literal['data']):  Default: 'data'.
            metadata (None | StructuredDataItemMetadataType0 | Unset):
     """

    data: StructuredDataItemData
    type_: Literal['data'] = 'data'
    metadata: None | StructuredDataItemMetadataType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.structured_data_item_data import StructuredDataItemData # noqa: PLC0415
        from ..models.structured_data_item_metadata_type_0 import StructuredDataItemMetadataType0 # noqa: PLC0415
        data = self.data.to_dict()

        type_ = self.type_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, StructuredDataItemMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "data": data,
            "type": type_,
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.structured_data_item_data import StructuredDataItemData # noqa: PLC0415
        from ..models.structured_data_item_metadata_type_0 import StructuredDataItemMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        data = StructuredDataItemData.from_dict(d.pop("data"))




        type_ = cast(Literal['data'] , d.pop("type"))
        if type_ != 'data':
            raise ValueError(f"type must match const 'data', got '{type_}'")

        def _parse_metadata(data: object) -> None | StructuredDataItemMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = StructuredDataItemMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StructuredDataItemMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        structured_data_item = cls(
            data=data,
            type_=type_,
            metadata=metadata,
        )

        return structured_data_item

