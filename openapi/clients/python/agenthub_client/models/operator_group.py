from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversation_state import ConversationState
from ..models.operator_group_joinpolicy import OperatorGroupJoinpolicy
from ..models.operator_group_speakingpolicy import OperatorGroupSpeakingpolicy
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.floor import Floor
  from ..models.member_view import MemberView





T = TypeVar("T", bound="OperatorGroup")



@_attrs_define
class OperatorGroup:
    """ A group as the operator lists it: with how many active members it has.

        Attributes:
            configured_by_operator (bool):
            conversation_state (ConversationState): IoA's conversation flow control (§2.3.3); ``conclusion`` is final.
            created_at (datetime.datetime):
            depth (int):
            floor (Floor): Who may speak under ``turns``: ``speakers`` (null: every member) until ``deadline``.
            id (str):
            join_policy (OperatorGroupJoinpolicy):
            last_seq (int):
            member_count (int): its active members
            members (list[MemberView]):
            name (str):
            owner_id (str):
            session_id (str):
            speaking_policy (OperatorGroupSpeakingpolicy):
            turn_timeout_seconds (float):
            updated_at (datetime.datetime):
            goal (None | str | Unset):
            parent_group_id (None | str | Unset):
     """

    configured_by_operator: bool
    conversation_state: ConversationState
    created_at: datetime.datetime
    depth: int
    floor: Floor
    id: str
    join_policy: OperatorGroupJoinpolicy
    last_seq: int
    member_count: int
    members: list[MemberView]
    name: str
    owner_id: str
    session_id: str
    speaking_policy: OperatorGroupSpeakingpolicy
    turn_timeout_seconds: float
    updated_at: datetime.datetime
    goal: None | str | Unset = UNSET
    parent_group_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.floor import Floor # noqa: PLC0415
        from ..models.member_view import MemberView # noqa: PLC0415
        configured_by_operator = self.configured_by_operator

        conversation_state = self.conversation_state.value

        created_at = self.created_at.isoformat()

        depth = self.depth

        floor = self.floor.to_dict()

        id = self.id

        join_policy = self.join_policy.value

        last_seq = self.last_seq

        member_count = self.member_count

        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)



        name = self.name

        owner_id = self.owner_id

        session_id = self.session_id

        speaking_policy = self.speaking_policy.value

        turn_timeout_seconds = self.turn_timeout_seconds

        updated_at = self.updated_at.isoformat()

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        parent_group_id: None | str | Unset
        if isinstance(self.parent_group_id, Unset):
            parent_group_id = UNSET
        else:
            parent_group_id = self.parent_group_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "configuredByOperator": configured_by_operator,
            "conversationState": conversation_state,
            "createdAt": created_at,
            "depth": depth,
            "floor": floor,
            "id": id,
            "joinPolicy": join_policy,
            "lastSeq": last_seq,
            "memberCount": member_count,
            "members": members,
            "name": name,
            "ownerId": owner_id,
            "sessionId": session_id,
            "speakingPolicy": speaking_policy,
            "turnTimeoutSeconds": turn_timeout_seconds,
            "updatedAt": updated_at,
        })
        if goal is not UNSET:
            field_dict["goal"] = goal
        if parent_group_id is not UNSET:
            field_dict["parentGroupId"] = parent_group_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.floor import Floor # noqa: PLC0415
        from ..models.member_view import MemberView # noqa: PLC0415
        d = dict(src_dict)
        configured_by_operator = d.pop("configuredByOperator")

        conversation_state = ConversationState(d.pop("conversationState"))




        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        depth = d.pop("depth")

        floor = Floor.from_dict(d.pop("floor"))




        id = d.pop("id")

        join_policy = OperatorGroupJoinpolicy(d.pop("joinPolicy"))




        last_seq = d.pop("lastSeq")

        member_count = d.pop("memberCount")

        members = []
        _members = d.pop("members")
        for members_item_data in (_members):
            members_item = MemberView.from_dict(members_item_data)



            members.append(members_item)


        name = d.pop("name")

        owner_id = d.pop("ownerId")

        session_id = d.pop("sessionId")

        speaking_policy = OperatorGroupSpeakingpolicy(d.pop("speakingPolicy"))




        turn_timeout_seconds = d.pop("turnTimeoutSeconds")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        def _parse_parent_group_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_group_id = _parse_parent_group_id(d.pop("parentGroupId", UNSET))


        operator_group = cls(
            configured_by_operator=configured_by_operator,
            conversation_state=conversation_state,
            created_at=created_at,
            depth=depth,
            floor=floor,
            id=id,
            join_policy=join_policy,
            last_seq=last_seq,
            member_count=member_count,
            members=members,
            name=name,
            owner_id=owner_id,
            session_id=session_id,
            speaking_policy=speaking_policy,
            turn_timeout_seconds=turn_timeout_seconds,
            updated_at=updated_at,
            goal=goal,
            parent_group_id=parent_group_id,
        )

        return operator_group

