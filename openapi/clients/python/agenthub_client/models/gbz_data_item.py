from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.gbz_data_item_metadata import GbzDataItemMetadata





T = TypeVar("T", bound="GbzDataItem")



@_attrs_define
class GbzDataItem:
    """ GB/Z 185.6 Table 2 Data: a MIME ``type``, the ``metadata`` that describes the payload
    and the ``payload`` itself, all three required. The hub and the kit take it wherever an
    AIP item goes and keep it as the AIP item ``to_aip`` maps it to (what every AIP peer
    reads); ``to_gbz`` gives it back as it came.

        Attributes:
            metadata (GbzDataItemMetadata): describes the payload's structure
            payload (Any): the content: any JSON value but null
            type_ (str): a MIME type
     """

    metadata: GbzDataItemMetadata
    payload: Any
    type_: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.gbz_data_item_metadata import GbzDataItemMetadata # noqa: PLC0415
        metadata = self.metadata.to_dict()

        payload = self.payload

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metadata": metadata,
            "payload": payload,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.gbz_data_item_metadata import GbzDataItemMetadata # noqa: PLC0415
        d = dict(src_dict)
        metadata = GbzDataItemMetadata.from_dict(d.pop("metadata"))




        payload = d.pop("payload")

        type_ = d.pop("type")

        gbz_data_item = cls(
            metadata=metadata,
            payload=payload,
            type_=type_,
        )

        return gbz_data_item

