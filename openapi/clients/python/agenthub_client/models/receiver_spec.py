from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.receiver_spec_mode import ReceiverSpecMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.receiver_spec_params_type_0 import ReceiverSpecParamsType0





T = TypeVar("T", bound="ReceiverSpec")



@_attrs_define
class ReceiverSpec:
    """ 
        Attributes:
            agent_id (str):
            mode (ReceiverSpecMode | Unset):  Default: ReceiverSpecMode.P2P.
            params (None | ReceiverSpecParamsType0 | Unset):
     """

    agent_id: str
    mode: ReceiverSpecMode | Unset = ReceiverSpecMode.P2P
    params: None | ReceiverSpecParamsType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.receiver_spec_params_type_0 import ReceiverSpecParamsType0 # noqa: PLC0415
        agent_id = self.agent_id

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, ReceiverSpecParamsType0):
            params = self.params.to_dict()
        else:
            params = self.params


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
        })
        if mode is not UNSET:
            field_dict["mode"] = mode
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receiver_spec_params_type_0 import ReceiverSpecParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        _mode = d.pop("mode", UNSET)
        mode: ReceiverSpecMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = ReceiverSpecMode(_mode)




        def _parse_params(data: object) -> None | ReceiverSpecParamsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = ReceiverSpecParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReceiverSpecParamsType0 | Unset, data)

        params = _parse_params(d.pop("params", UNSET))


        receiver_spec = cls(
            agent_id=agent_id,
            mode=mode,
            params=params,
        )

        return receiver_spec

