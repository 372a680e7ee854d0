"""The base of every wire object: camelCase on the wire, snake_case in Python."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, StringConstraints
from pydantic.alias_generators import to_camel

Identifier = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class WireModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        ser_json_timedelta="float",
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict as it goes on the wire: camelCase, no unset optionals."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)
