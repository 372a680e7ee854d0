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
  from ..models.text_data_item_metadata_type_0 import TextDataItemMetadataType0





T = TypeVar("T", bound="TextDataItem")



@_attrs_define
class TextDataItem:
    """ 
        Attributes:
            text (str):
            type_ (Literal['text']):  Default: 'text'.
            metadata (None | TextDataItemMetadataType0 | Unset):
     """

    text: str
    type_: Literal['text'] = 'text'
    metadata: None | TextDataItemMetadataType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.text_data_item_metadata_type_0 import TextDataItemMetadataType0 # noqa: PLC0415
        text = self.text

        type_ = self.type_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TextDataItemMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
            "type": type_,
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.text_data_item_metadata_type_0 import TextDataItemMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        text = d.pop("text")

        type_ = cast(Literal['text'] , d.pop("type"))
        if type_ != 'text':
            raise ValueError(f"type must match const 'text', got '{type_}'")

        def _parse_metadata(data: object) -> None | TextDataItemMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TextDataItemMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TextDataItemMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        text_data_item = cls(
            text=text,
            type_=type_,
            metadata=metadata,
        )

        return text_data_item

