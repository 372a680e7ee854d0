from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Skill")



@_attrs_define
class Skill:
    """ 
        Attributes:
            id (str):
            name (str):
            description (str | Unset):  Default: ''.
            input_types (list[str] | None | Unset):
            output_types (list[str] | None | Unset):
            tags (list[str] | Unset):
     """

    id: str
    name: str
    description: str | Unset = ''
    input_types: list[str] | None | Unset = UNSET
    output_types: list[str] | None | Unset = UNSET
    tags: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        description = self.description

        input_types: list[str] | None | Unset
        if isinstance(self.input_types, Unset):
            input_types = UNSET
        elif isinstance(self.input_types, list):
            input_types = self.input_types


        else:
            input_types = self.input_types

        output_types: list[str] | None | Unset
        if isinstance(self.output_types, Unset):
            output_types = UNSET
        elif isinstance(self.output_types, list):
            output_types = self.output_types


        else:
            output_types = self.output_types

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if input_types is not UNSET:
            field_dict["inputTypes"] = input_types
        if output_types is not UNSET:
            field_dict["outputTypes"] = output_types
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        description = d.pop("description", UNSET)

        def _parse_input_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_types_type_0 = cast(list[str], data)

                return input_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        input_types = _parse_input_types(d.pop("inputTypes", UNSET))


        def _parse_output_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                output_types_type_0 = cast(list[str], data)

                return output_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        output_types = _parse_output_types(d.pop("outputTypes", UNSET))


        tags = cast(list[str], d.pop("tags", UNSET))


        skill = cls(
            id=id,
            name=name,
            description=description,
            input_types=input_types,
            output_types=output_types,
            tags=tags,
        )

        return skill

