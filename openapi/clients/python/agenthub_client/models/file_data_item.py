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
  from ..models.file_data_item_metadata_type_0 import FileDataItemMetadataType0





T = TypeVar("T", bound="FileDataItem")



@_attrs_define
class FileDataItem:
    """ 
        Attributes:
            type_ (Literal['file']):  Default: 'file'.
            bytes_ (None | str | Unset):
            metadata (FileDataItemMetadataType0 | None | Unset):
            mime_type (None | str | Unset):
            name (None | str | Unset):
            uri (None | str | Unset):
     """

    type_: Literal['file'] = 'file'
    bytes_: None | str | Unset = UNSET
    metadata: FileDataItemMetadataType0 | None | Unset = UNSET
    mime_type: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    uri: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.file_data_item_metadata_type_0 import FileDataItemMetadataType0 # noqa: PLC0415
        type_ = self.type_

        bytes_: None | str | Unset
        if isinstance(self.bytes_, Unset):
            bytes_ = UNSET
        else:
            bytes_ = self.bytes_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, FileDataItemMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        mime_type: None | str | Unset
        if isinstance(self.mime_type, Unset):
            mime_type = UNSET
        else:
            mime_type = self.mime_type

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        uri: None | str | Unset
        if isinstance(self.uri, Unset):
            uri = UNSET
        else:
            uri = self.uri


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if bytes_ is not UNSET:
            field_dict["bytes"] = bytes_
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type
        if name is not UNSET:
            field_dict["name"] = name
        if uri is not UNSET:
            field_dict["uri"] = uri

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_data_item_metadata_type_0 import FileDataItemMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['file'] , d.pop("type"))
        if type_ != 'file':
            raise ValueError(f"type must match const 'file', got '{type_}'")

        def _parse_bytes_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bytes_ = _parse_bytes_(d.pop("bytes", UNSET))


        def _parse_metadata(data: object) -> FileDataItemMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = FileDataItemMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileDataItemMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        def _parse_mime_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mime_type = _parse_mime_type(d.pop("mimeType", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        uri = _parse_uri(d.pop("uri", UNSET))


        file_data_item = cls(
            type_=type_,
            bytes_=bytes_,
            metadata=metadata,
            mime_type=mime_type,
            name=name,
            uri=uri,
        )

        return file_data_item

