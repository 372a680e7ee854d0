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
  from ..models.group_a2a_body_params import GroupA2ABodyParams





T = TypeVar("T", bound="GroupA2ABody")



@_attrs_define
class GroupA2ABody:
    """ A JSON-RPC 2.0 request (A2A v1.0 method names)

        Attributes:
            jsonrpc (Literal['2.0']):
            method (str):
            id (int | None | str | Unset):
            params (GroupA2ABodyParams | Unset):
     """

    jsonrpc: Literal['2.0']
    method: str
    id: int | None | str | Unset = UNSET
    params: GroupA2ABodyParams | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.group_a2a_body_params import GroupA2ABodyParams # noqa: PLC0415
        jsonrpc = self.jsonrpc

        method = self.method

        id: int | None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "jsonrpc": jsonrpc,
            "method": method,
        })
        if id is not UNSET:
            field_dict["id"] = id
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.group_a2a_body_params import GroupA2ABodyParams # noqa: PLC0415
        d = dict(src_dict)
        jsonrpc = cast(Literal['2.0'] , d.pop("jsonrpc"))
        if jsonrpc != '2.0':
            raise ValueError(f"jsonrpc must match const '2.0', got '{jsonrpc}'")

        method = d.pop("method")

        def _parse_id(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        _params = d.pop("params", UNSET)
        params: GroupA2ABodyParams | Unset
        if isinstance(_params,  Unset):
            params = UNSET
        else:
            params = GroupA2ABodyParams.from_dict(_params)




        group_a2a_body = cls(
            jsonrpc=jsonrpc,
            method=method,
            id=id,
            params=params,
        )


        group_a2a_body.additional_properties = d
        return group_a2a_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
