from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

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
            caller_id (None | str | Unset): the caller, when it proved to be a registered agent (a call token or a hub-
                issued client certificate); absent for an anonymous caller
     """

    context_id: str
    protocol: Literal['a2a']
    caller_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        context_id = self.context_id

        protocol = self.protocol

        caller_id: None | str | Unset
        if isinstance(self.caller_id, Unset):
            caller_id = UNSET
        else:
            caller_id = self.caller_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "contextId": context_id,
            "protocol": protocol,
        })
        if caller_id is not UNSET:
            field_dict["callerId"] = caller_id

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


        session_bridge = cls(
            context_id=context_id,
            protocol=protocol,
            caller_id=caller_id,
        )

        return session_bridge

