"""The base of every wire object: camelCase on the wire, snake_case in Python."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    StringConstraints,
    field_validator,
    model_serializer,
)
from pydantic.alias_generators import to_camel

Identifier = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class WireModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        ser_json_timedelta="float",
    )

    @field_validator("*", mode="after")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        """NUL characters are refused everywhere: SQL text columns cannot hold them."""
        if _holds_nul(value):
            raise ValueError("NUL characters (\\u0000) are not accepted")
        return value

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict as it goes on the wire: camelCase, no unset optionals."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class CompactWireModel(WireModel):
    """A protocol object: absent optionals are left out of its JSON, as acps-sdk does."""

    # no return annotation on purpose: with one, pydantic would publish it as the schema
    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {k: v for k, v in data.items() if v is not None}


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list | tuple):
        return any(_holds_nul(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    return False
