from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_state import MemberState
from ..models.member_view_role import MemberViewRole
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="MemberView")



@_attrs_define
class MemberView:
    """ 
        Attributes:
            agent_id (str):
            muted (bool):
            role (MemberViewRole):
            state (MemberState):
            updated_at (datetime.datetime):
            note (None | str | Unset):
     """

    agent_id: str
    muted: bool
    role: MemberViewRole
    state: MemberState
    updated_at: datetime.datetime
    note: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        muted = self.muted

        role = self.role.value

        state = self.state.value

        updated_at = self.updated_at.isoformat()

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "muted": muted,
            "role": role,
            "state": state,
            "updatedAt": updated_at,
        })
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        muted = d.pop("muted")

        role = MemberViewRole(d.pop("role"))




        state = MemberState(d.pop("state"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))


        member_view = cls(
            agent_id=agent_id,
            muted=muted,
            role=role,
            state=state,
            updated_at=updated_at,
            note=note,
        )

        return member_view

