"""GB/Z Data (AIP DataItem): the smallest typed unit of content."""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from agenthub.protocol.base import CompactWireModel

MAX_TEXT_CHARS = 1_000_000


class _DataItemBase(CompactWireModel):
    metadata: dict[str, Any] | None = None


class TextDataItem(_DataItemBase):
    type: Literal["text"] = "text"
    text: str = Field(max_length=MAX_TEXT_CHARS)


class FileDataItem(_DataItemBase):
    type: Literal["file"] = "file"
    name: str | None = Field(default=None, max_length=500)
    mime_type: str | None = Field(default=None, max_length=200)
    uri: str | None = Field(default=None, max_length=4000)
    bytes: str | None = None

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
