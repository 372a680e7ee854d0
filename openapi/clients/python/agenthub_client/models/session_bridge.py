from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_bridge_caller_kind_type_0 import SessionBridgeCallerKindType0
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="SessionBridge")



@_attrs_define
class SessionBridge:
    """ A bridge session: its leader serves a caller of another protocol (an A2A client,
    which records nothing at the hub) and records the caller's task as both sides, the
    caller's commands as the task's leader and its own answers as its partner.

        Attributes:
            context_id (str): the caller's conversation (A2A `contextId`)
            protocol (Literal['a2a']):
            caller_id (None | str | Unset): the caller, when it proved who it is: a registered agent (a call token, a hub-
                issued client certificate or the hub's OAuth token) or an application the operator registered (the hub's OAuth
                token); absent for an anonymous caller
            caller_kind (None | SessionBridgeCallerKindType0 | Unset): what `callerId` names: `agent` (also when absent) or
                `application`, an OAuth client of the operator's (`POST /v1/operator/oauth-clients`)
     """

    context_id: str
    protocol: Literal['a2a']
    caller_id: None | str | Unset = UNSET
    caller_kind: None | SessionBridgeCallerKindType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        context_id = self.context_id

        protocol = self.protocol

        caller_id: None | str | Unset
        if isinstance(self.caller_id, Unset):
            caller_id = UNSET
        else:
            caller_id = self.caller_id

        caller_kind: None | str | Unset
        if isinstance(self.caller_kind, Unset):
            caller_kind = UNSET
        elif isinstance(self.caller_kind, SessionBridgeCallerKindType0):
            caller_kind = self.caller_kind.value
        else:
            caller_kind = self.caller_kind


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "contextId": context_id,
            "protocol": protocol,
        })
        if caller_id is not UNSET:
            field_dict["callerId"] = caller_id
        if caller_kind is not UNSET:
            field_dict["callerKind"] = caller_kind

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        context_id = d.pop("contextId")

        protocol = cast(Literal['a2a'] , d.pop("protocol"))
        if protocol != 'a2a':
            raise ValueError(f"protocol must match const 'a2a', got '{protocol}'")

        def _parse_caller_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        caller_id = _parse_caller_id(d.pop("callerId", UNSET))


        def _parse_caller_kind(data: object) -> None | SessionBridgeCallerKindType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                caller_kind_type_0 = SessionBridgeCallerKindType0(data)



                return caller_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionBridgeCallerKindType0 | Unset, data)

        caller_kind = _parse_caller_kind(d.pop("callerKind", UNSET))


        session_bridge = cls(
            context_id=context_id,
            protocol=protocol,
            caller_id=caller_id,
            caller_kind=caller_kind,
        )

        return session_bridge

