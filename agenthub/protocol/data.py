"""GB/Z Data (AIP DataItem): the smallest typed unit of content."""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from agenthub.protocol.base import CompactWireModel, type_required

MAX_TEXT_CHARS = 1_000_000


class _DataItemBase(CompactWireModel):
    model_config = ConfigDict(json_schema_extra=type_required)

    metadata: dict[str, Any] | None = None


class TextDataItem(_DataItemBase):
    type: Literal["text"] = "text"
    text: str = Field(max_length=MAX_TEXT_CHARS)


BASE64 = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


def _file_schema(schema: dict[str, Any]) -> None:
    type_required(schema)
    # "uri or bytes" (a string, not null), said as "not neither": an item whose uri and bytes
    # are each absent or null matches these properties. Generators keep one model for it.
    schema["not"] = {"properties": {"uri": {"type": "null"}, "bytes": {"type": "null"}}}


class FileDataItem(_DataItemBase):
    model_config = ConfigDict(json_schema_extra=_file_schema)

    type: Literal["file"] = "file"
    name: str | None = Field(default=None, max_length=500)
    mime_type: str | None = Field(default=None, max_length=200)
    uri: str | None = Field(default=None, max_length=4000)
    bytes: str | None = Field(
        default=None, json_schema_extra={"pattern": BASE64, "contentEncoding": "base64"}
    )

    @field_validator("bytes")
    @classmethod
    def _base64(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ValueError("bytes must be base64") from exc
        return value

    @model_validator(mode="after")
    def _uri_or_bytes(self) -> FileDataItem:
        if self.uri is None and self.bytes is None:
            raise ValueError("a file data item needs uri or bytes")
        return self


class StructuredDataItem(_DataItemBase):
    type: Literal["data"] = "data"
    data: dict[str, Any]


DataItem = Annotated[TextDataItem | FileDataItem | StructuredDataItem, Field(discriminator="type")]
