"""The base of every wire object: camelCase on the wire, snake_case in Python."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    StringConstraints,
    field_validator,
    model_serializer,
)
from pydantic.alias_generators import to_camel

Identifier = Annotated[str, StringConstraints(min_length=1, max_length=200)]

AIP_DEFAULT_ZONE = timezone(timedelta(hours=8), "Beijing")
"""AIP's times are ISO 8601 "with the Beijing time zone by default": one without an offset."""


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=AIP_DEFAULT_ZONE)


WireTime = Annotated[datetime, AfterValidator(_aware)]
"""A time on the wire, always with its offset once parsed (a naive one is AIP's default zone),
so that times from different senders compare (a naive and an aware one do not)."""

MAX_JSON_DEPTH = 32
"""How deep free-form JSON (metadata, data, commandParams, params) may nest."""
INT_RANGE = (-(2**63), 2**64 - 1)
"""The integers every store and serializer of the hub can hold (orjson's range)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


class WireModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        ser_json_timedelta="float",
    )

    @field_validator("*", mode="after")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        """Refuse, in every field, what no store or serializer can hold: a value refused
        here is never committed, so it can never poison a later read."""
        problem = json_problem(value)
        if problem is not None:
            raise ValueError(problem)
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


def not_null(schema: dict[str, Any]) -> None:
    """``json_schema_extra`` of a patch field that may be left out but not sent as null."""
    options = [o for o in schema.pop("anyOf", []) if o.get("type") != "null"]
    if len(options) == 1:
        schema.update(options[0])
    elif options:
        schema["anyOf"] = options
    schema.pop("default", None)


def type_required(schema: dict[str, Any]) -> None:
    """``json_schema_extra`` of a message or a data item: its ``type`` picks its kind (the
    discriminator of every union of them), so it is required on the wire even where it has
    a default (else a generated client sends items without it)."""
    if "type" in schema.get("properties", {}) and "type" not in schema.get("required", []):
        schema["required"] = [*schema.get("required", []), "type"]


def patch_schema(schema: dict[str, Any]) -> None:
    """``json_schema_extra`` of a patch body: it must change something."""
    schema["minProperties"] = 1


def json_problem(value: Any, depth: int = 0) -> str | None:
    """Why ``value`` cannot be stored and served as JSON, or None. Refused: NUL characters
    (SQL text cannot hold them), lone UTF-16 surrogates (not Unicode: UTF-8 cannot encode
    them), integers outside ``INT_RANGE``, NaN and infinities, and containers nested deeper
    than ``MAX_JSON_DEPTH``. Models inside a value were checked when they were built."""
    if isinstance(value, str):
        if "\x00" in value:
            return "NUL characters (\\u0000) are not accepted"
        if _SURROGATE.search(value):
            return "lone UTF-16 surrogates (\\ud800-\\udfff) are not valid Unicode"
        return None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        low, high = INT_RANGE
        return None if low <= value <= high else "integers must fit in 64 bits"
    if isinstance(value, float):
        return None if math.isfinite(value) else "numbers must be finite (no NaN or Infinity)"
    if isinstance(value, list | tuple | dict):
        if depth >= MAX_JSON_DEPTH:
            return f"JSON may nest at most {MAX_JSON_DEPTH} levels deep"
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            problem = (json_problem(key) if isinstance(key, str) else None) or json_problem(
                item, depth + 1
            )
            if problem is not None:
                return problem
    return None
