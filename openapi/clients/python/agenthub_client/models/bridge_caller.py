from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bridge_caller_kind import BridgeCallerKind
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BridgeCaller")



@_attrs_define
class BridgeCaller:
    """ Who called through a bridge session: a registered agent or an application the
    operator registered, with the name the hub knows it by (kept after it leaves).

        Attributes:
            id (str):
            kind (BridgeCallerKind):
            name (None | str | Unset):
     """

    id: str
    kind: BridgeCallerKind
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "kind": kind,
        })
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        kind = BridgeCallerKind(d.pop("kind"))




        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        bridge_caller = cls(
            id=id,
            kind=kind,
            name=name,
        )

        return bridge_caller

