from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.group_create_joinpolicy import GroupCreateJoinpolicy
from ..models.group_create_speakingpolicy import GroupCreateSpeakingpolicy
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GroupCreate")



@_attrs_define
class GroupCreate:
    """ 
        Attributes:
            name (str):
            session_id (str):
            goal (None | str | Unset):
            invite_ids (list[str] | Unset):
            join_policy (GroupCreateJoinpolicy | Unset):  Default: GroupCreateJoinpolicy.INVITE.
            member_ids (list[str] | Unset): operator only: agents made active members of a pre-configured group
            owner_id (None | str | Unset): operator only: the agent that owns a pre-configured group
            parent_group_id (None | str | Unset):
            speaking_policy (GroupCreateSpeakingpolicy | Unset):  Default: GroupCreateSpeakingpolicy.FREE.
            turn_timeout_seconds (float | Unset):  Default: 60.0.
     """

    name: str
    session_id: str
    goal: None | str | Unset = UNSET
    invite_ids: list[str] | Unset = UNSET
    join_policy: GroupCreateJoinpolicy | Unset = GroupCreateJoinpolicy.INVITE
    member_ids: list[str] | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    parent_group_id: None | str | Unset = UNSET
    speaking_policy: GroupCreateSpeakingpolicy | Unset = GroupCreateSpeakingpolicy.FREE
    turn_timeout_seconds: float | Unset = 60.0





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        session_id = self.session_id

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        invite_ids: list[str] | Unset = UNSET
        if not isinstance(self.invite_ids, Unset):
            invite_ids = self.invite_ids



        join_policy: str | Unset = UNSET
        if not isinstance(self.join_policy, Unset):
            join_policy = self.join_policy.value


        member_ids: list[str] | Unset = UNSET
        if not isinstance(self.member_ids, Unset):
            member_ids = self.member_ids



        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        parent_group_id: None | str | Unset
        if isinstance(self.parent_group_id, Unset):
            parent_group_id = UNSET
        else:
            parent_group_id = self.parent_group_id

        speaking_policy: str | Unset = UNSET
        if not isinstance(self.speaking_policy, Unset):
            speaking_policy = self.speaking_policy.value


        turn_timeout_seconds = self.turn_timeout_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "sessionId": session_id,
        })
        if goal is not UNSET:
            field_dict["goal"] = goal
        if invite_ids is not UNSET:
            field_dict["inviteIds"] = invite_ids
        if join_policy is not UNSET:
            field_dict["joinPolicy"] = join_policy
        if member_ids is not UNSET:
            field_dict["memberIds"] = member_ids
        if owner_id is not UNSET:
            field_dict["ownerId"] = owner_id
        if parent_group_id is not UNSET:
            field_dict["parentGroupId"] = parent_group_id
        if speaking_policy is not UNSET:
            field_dict["speakingPolicy"] = speaking_policy
        if turn_timeout_seconds is not UNSET:
            field_dict["turnTimeoutSeconds"] = turn_timeout_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        session_id = d.pop("sessionId")

        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        invite_ids = cast(list[str], d.pop("inviteIds", UNSET))


        _join_policy = d.pop("joinPolicy", UNSET)
        join_policy: GroupCreateJoinpolicy | Unset
        if isinstance(_join_policy,  Unset):
            join_policy = UNSET
        else:
            join_policy = GroupCreateJoinpolicy(_join_policy)




        member_ids = cast(list[str], d.pop("memberIds", UNSET))


        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("ownerId", UNSET))


        def _parse_parent_group_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_group_id = _parse_parent_group_id(d.pop("parentGroupId", UNSET))


        _speaking_policy = d.pop("speakingPolicy", UNSET)
        speaking_policy: GroupCreateSpeakingpolicy | Unset
        if isinstance(_speaking_policy,  Unset):
            speaking_policy = UNSET
        else:
            speaking_policy = GroupCreateSpeakingpolicy(_speaking_policy)




        turn_timeout_seconds = d.pop("turnTimeoutSeconds", UNSET)

        group_create = cls(
            name=name,
            session_id=session_id,
            goal=goal,
            invite_ids=invite_ids,
            join_policy=join_policy,
            member_ids=member_ids,
            owner_id=owner_id,
            parent_group_id=parent_group_id,
            speaking_policy=speaking_policy,
            turn_timeout_seconds=turn_timeout_seconds,
        )

        return group_create

