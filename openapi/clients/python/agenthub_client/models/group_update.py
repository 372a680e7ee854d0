from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversation_state import ConversationState
from ..models.group_update_join_policy_type_0 import GroupUpdateJoinPolicyType0
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GroupUpdate")



@_attrs_define
class GroupUpdate:
    """ 
        Attributes:
            conversation_state (ConversationState | None | Unset):
            goal (None | str | Unset):
            join_policy (GroupUpdateJoinPolicyType0 | None | Unset):
            name (None | str | Unset):
     """

    conversation_state: ConversationState | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    join_policy: GroupUpdateJoinPolicyType0 | None | Unset = UNSET
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        conversation_state: None | str | Unset
        if isinstance(self.conversation_state, Unset):
            conversation_state = UNSET
        elif isinstance(self.conversation_state, ConversationState):
            conversation_state = self.conversation_state.value
        else:
            conversation_state = self.conversation_state

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        join_policy: None | str | Unset
        if isinstance(self.join_policy, Unset):
            join_policy = UNSET
        elif isinstance(self.join_policy, GroupUpdateJoinPolicyType0):
            join_policy = self.join_policy.value
        else:
            join_policy = self.join_policy

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if conversation_state is not UNSET:
            field_dict["conversationState"] = conversation_state
        if goal is not UNSET:
            field_dict["goal"] = goal
        if join_policy is not UNSET:
            field_dict["joinPolicy"] = join_policy
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_conversation_state(data: object) -> ConversationState | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                conversation_state_type_0 = ConversationState(data)



                return conversation_state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConversationState | None | Unset, data)

        conversation_state = _parse_conversation_state(d.pop("conversationState", UNSET))


        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        def _parse_join_policy(data: object) -> GroupUpdateJoinPolicyType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                join_policy_type_0 = GroupUpdateJoinPolicyType0(data)



                return join_policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GroupUpdateJoinPolicyType0 | None | Unset, data)

        join_policy = _parse_join_policy(d.pop("joinPolicy", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        group_update = cls(
            conversation_state=conversation_state,
            goal=goal,
            join_policy=join_policy,
            name=name,
        )

        return group_update

