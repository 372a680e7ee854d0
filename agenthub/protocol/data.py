"""GB/Z Data (AIP DataItem): the smallest typed unit of content, in AIP's three kinds or
GB/Z's own form (Table 2), and the lossless mapping between the two."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from agenthub.protocol.base import CompactWireModel, WireModel, type_required

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


AipDataItem = TextDataItem | FileDataItem | StructuredDataItem
AIP_KINDS = ("text", "file", "data")
_aip_adapter: TypeAdapter[AipDataItem] = TypeAdapter(
    Annotated[AipDataItem, Field(discriminator="type")]
)

MIME_TYPE = r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(;.*)?$"
_MIME = re.compile(MIME_TYPE)
GBZ_KEY = "gbz"
"""The key of an AIP item's ``metadata`` that carries a GB/Z item's MIME type and metadata."""
AIP_KEY = "aip"
"""The key of a GB/Z item's ``metadata`` that carries an AIP item's other fields."""


class GbzDataItem(WireModel):
    """GB/Z 185.6 Table 2 Data: a MIME ``type``, the ``metadata`` that describes the payload
    and the ``payload`` itself, all three required. The hub and the kit take it wherever an
    AIP item goes and keep it as the AIP item ``to_aip`` maps it to (what every AIP peer
    reads); ``to_gbz`` gives it back as it came."""

    model_config = ConfigDict(title="GbzDataItem")

    type: str = Field(
        max_length=255, description="a MIME type", json_schema_extra={"pattern": MIME_TYPE}
    )
    metadata: dict[str, Any] = Field(description="describes the payload's structure")
    payload: Any = Field(
        description="the content: any JSON value but null",
        json_schema_extra={"not": {"type": "null"}},
    )

    @field_validator("type")
    @classmethod
    def _mime(cls, value: str) -> str:
        if not _MIME.fullmatch(value):  # match and $ would pass a final newline
            raise ValueError("type must be a MIME type, such as text/plain")
        return value

    @field_validator("payload")
    @classmethod
    def _present(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("a GB/Z data item needs a payload (not null)")
        return value


def _is_base64(value: str) -> bool:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _marked(item: GbzDataItem) -> AipDataItem:
    """The AIP item a GB/Z item is kept as: its content in the AIP item's own field, its MIME
    type and metadata under ``metadata.gbz``."""
    mark: dict[str, Any] = {"type": item.type, "metadata": item.metadata}
    payload = item.payload
    if isinstance(payload, str) and not item.type.startswith("text/") and _is_base64(payload):
        body: dict[str, Any] = {"type": "file", "mimeType": item.type, "bytes": payload}
    elif isinstance(payload, str):
        body = {"type": "text", "text": payload}
    elif isinstance(payload, dict):
        body = {"type": "data", "data": payload}
    else:  # a list, number or boolean: AIP data is an object
        mark["wrapped"] = True
        body = {"type": "data", "data": {"value": payload}}
    return _aip_adapter.validate_python({**body, "metadata": {GBZ_KEY: mark}})


_CONTENT = {"text": "text", "file": "bytes", "data": "data"}


def _native_gbz(item: AipDataItem) -> GbzDataItem:
    """A GB/Z view of an AIP item: its content as the payload, the rest under ``metadata.aip``."""
    rest = item.to_wire()
    field = _CONTENT[item.type]
    if isinstance(item, FileDataItem) and item.bytes is None:
        field = "uri"
    payload = rest.pop(field)
    if isinstance(item, TextDataItem):
        mime = "text/plain"
    elif isinstance(item, FileDataItem):
        mime = item.mime_type or "application/octet-stream"
    else:
        mime = "application/json"
    rest["content"] = field
    return GbzDataItem(type=mime, metadata={AIP_KEY: rest}, payload=payload)


def _unmarked(item: AipDataItem) -> GbzDataItem | None:
    """The GB/Z item ``item`` was mapped from, if it was (``metadata.gbz``)."""
    mark = (item.metadata or {}).get(GBZ_KEY)
    if not isinstance(mark, dict) or set(item.metadata or {}) != {GBZ_KEY}:
        return None
    payload: Any
    if isinstance(item, TextDataItem):
        payload = item.text
    elif isinstance(item, FileDataItem):
        payload = item.bytes
    else:
        payload = item.data
    if mark.get("wrapped") is True and isinstance(payload, dict) and set(payload) == {"value"}:
        payload = payload["value"]
    try:
        found = GbzDataItem(type=mark.get("type"), metadata=mark.get("metadata"), payload=payload)
    except ValidationError:
        return None
    return found if _marked(found) == item else None


def to_gbz(item: AipDataItem) -> GbzDataItem:
    """The GB/Z form of an AIP item: the GB/Z item it was mapped from (``to_aip``), or else
    its own content as the payload with its other fields under ``metadata.aip``. Lossless:
    ``to_aip(to_gbz(item)) == item``."""
    return _unmarked(item) or _native_gbz(item)


def to_aip(item: GbzDataItem) -> AipDataItem:
    """The AIP item a GB/Z item is kept and forwarded as (see ``_marked``); a GB/Z item that
    ``to_gbz`` made of an AIP item becomes that item again. Lossless:
    ``to_gbz(to_aip(item)) == item``."""
    rest = item.metadata.get(AIP_KEY)
    if set(item.metadata) == {AIP_KEY} and isinstance(rest, dict):
        fields = {k: v for k, v in rest.items() if k != "content"}
        try:
            native = _aip_adapter.validate_python(
                {**fields, str(rest.get("content")): item.payload}
            )
        except ValidationError:
            native = None
        if native is not None and _native_gbz(native) == item:
            return native
    return _marked(item)


def _kind(value: Any) -> str | None:
    """The union's tag: AIP's three kinds by their ``type``; an item whose ``type`` is no AIP
    kind is a GB/Z item when it looks like one (a MIME type, or a payload)."""
    if isinstance(value, dict):
        kind = value.get("type")
        if kind in AIP_KINDS:
            return str(kind)
        looks = (isinstance(kind, str) and "/" in kind) or "payload" in value
        return "gbz" if looks else None
    if isinstance(value, GbzDataItem):
        return "gbz"
    return getattr(value, "type", None)


def _as_aip(item: AipDataItem | GbzDataItem) -> AipDataItem:
    return to_aip(item) if isinstance(item, GbzDataItem) else item


DataItem = Annotated[
    Annotated[TextDataItem, Tag("text")]
    | Annotated[FileDataItem, Tag("file")]
    | Annotated[StructuredDataItem, Tag("data")]
    | Annotated[GbzDataItem, Tag("gbz")],
    Discriminator(
        _kind,
        custom_error_type="data_item_type",
        custom_error_message="type must be text, file, data or a MIME type (a GB/Z item)",
    ),
    AfterValidator(_as_aip),
]
"""An AIP item (``type`` text, file or data) or a GB/Z one (``type`` a MIME type), always
kept as the AIP item: ``to_gbz`` gives a GB/Z item back as it came."""
