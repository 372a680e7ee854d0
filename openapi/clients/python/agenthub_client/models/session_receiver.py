from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_receiver_mode import SessionReceiverMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.session_receiver_params_type_0 import SessionReceiverParamsType0





T = TypeVar("T", bound="SessionReceiver")



@_attrs_define
class SessionReceiver:
    """ 
        Attributes:
            agent_id (str):
            mode (SessionReceiverMode):
            address (None | str | Unset):
            params (None | SessionReceiverParamsType0 | Unset):
     """

    agent_id: str
    mode: SessionReceiverMode
    address: None | str | Unset = UNSET
    params: None | SessionReceiverParamsType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_receiver_params_type_0 import SessionReceiverParamsType0 # noqa: PLC0415
        agent_id = self.agent_id

        mode = self.mode.value

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        params: dict[str, Any] | None | Unset
        if isinstance(self.params, Unset):
            params = UNSET
        elif isinstance(self.params, SessionReceiverParamsType0):
            params = self.params.to_dict()
        else:
            params = self.params


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "mode": mode,
        })
        if address is not UNSET:
            field_dict["address"] = address
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_receiver_params_type_0 import SessionReceiverParamsType0 # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        mode = SessionReceiverMode(d.pop("mode"))




        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))


        def _parse_params(data: object) -> None | SessionReceiverParamsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                params_type_0 = SessionReceiverParamsType0.from_dict(data)



                return params_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionReceiverParamsType0 | Unset, data)

        params = _parse_params(d.pop("params", UNSET))


        session_receiver = cls(
            agent_id=agent_id,
            mode=mode,
            address=address,
            params=params,
        )

        return session_receiver

