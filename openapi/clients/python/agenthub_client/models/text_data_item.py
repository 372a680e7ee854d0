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
            metadata (None | TextDataItemMetadataType0 | Unset):
            type_ (Literal['text'] | Unset):  Default: 'text'.
     """

    text: str
    metadata: None | TextDataItemMetadataType0 | Unset = UNSET
    type_: Literal['text'] | Unset = 'text'





    def to_dict(self) -> dict[str, Any]:
        from ..models.text_data_item_metadata_type_0 import TextDataItemMetadataType0 # noqa: PLC0415
        text = self.text

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TextDataItemMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.text_data_item_metadata_type_0 import TextDataItemMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        text = d.pop("text")

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


        type_ = cast(Literal['text'] | Unset , d.pop("type", UNSET))
        if type_ != 'text'and not isinstance(type_, Unset):
            raise ValueError(f"type must match const 'text', got '{type_}'")

        text_data_item = cls(
            text=text,
            metadata=metadata,
            type_=type_,
        )

        return text_data_item

