from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_bridge_view_caller_kind_type_0 import SessionBridgeViewCallerKindType0
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.bridge_caller import BridgeCaller





T = TypeVar("T", bound="SessionBridgeView")



@_attrs_define
class SessionBridgeView:
    """ 
        Attributes:
            context_id (str): the caller's conversation (A2A `contextId`)
            protocol (Literal['a2a']):
            caller (BridgeCaller | None | Unset): the caller `callerId` names, with its kind and name
            caller_id (None | str | Unset): the caller, when it proved who it is: a registered agent (a call token, a hub-
                issued client certificate or the hub's OAuth token) or an application the operator registered (the hub's OAuth
                token); absent for an anonymous caller
            caller_kind (None | SessionBridgeViewCallerKindType0 | Unset): what `callerId` names: `agent` (also when absent)
                or `application`, an OAuth client of the operator's (`POST /v1/operator/oauth-clients`)
     """

    context_id: str
    protocol: Literal['a2a']
    caller: BridgeCaller | None | Unset = UNSET
    caller_id: None | str | Unset = UNSET
    caller_kind: None | SessionBridgeViewCallerKindType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        context_id = self.context_id

        protocol = self.protocol

        caller: dict[str, Any] | None | Unset
        if isinstance(self.caller, Unset):
            caller = UNSET
        elif isinstance(self.caller, BridgeCaller):
            caller = self.caller.to_dict()
        else:
            caller = self.caller

        caller_id: None | str | Unset
        if isinstance(self.caller_id, Unset):
            caller_id = UNSET
        else:
            caller_id = self.caller_id

        caller_kind: None | str | Unset
        if isinstance(self.caller_kind, Unset):
            caller_kind = UNSET
        elif isinstance(self.caller_kind, SessionBridgeViewCallerKindType0):
            caller_kind = self.caller_kind.value
        else:
            caller_kind = self.caller_kind


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "contextId": context_id,
            "protocol": protocol,
        })
        if caller is not UNSET:
            field_dict["caller"] = caller
        if caller_id is not UNSET:
            field_dict["callerId"] = caller_id
        if caller_kind is not UNSET:
            field_dict["callerKind"] = caller_kind

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        d = dict(src_dict)
        context_id = d.pop("contextId")

        protocol = cast(Literal['a2a'] , d.pop("protocol"))
        if protocol != 'a2a':
            raise ValueError(f"protocol must match const 'a2a', got '{protocol}'")

        def _parse_caller(data: object) -> BridgeCaller | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                caller_type_0 = BridgeCaller.from_dict(data)



                return caller_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BridgeCaller | None | Unset, data)

        caller = _parse_caller(d.pop("caller", UNSET))


        def _parse_caller_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        caller_id = _parse_caller_id(d.pop("callerId", UNSET))


        def _parse_caller_kind(data: object) -> None | SessionBridgeViewCallerKindType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                caller_kind_type_0 = SessionBridgeViewCallerKindType0(data)



                return caller_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionBridgeViewCallerKindType0 | Unset, data)

        caller_kind = _parse_caller_kind(d.pop("callerKind", UNSET))


        session_bridge_view = cls(
            context_id=context_id,
            protocol=protocol,
            caller=caller,
            caller_id=caller_id,
            caller_kind=caller_kind,
        )

        return session_bridge_view

