from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversation_state import ConversationState
from ..models.group_update_joinpolicy import GroupUpdateJoinpolicy
from ..models.group_update_speakingpolicy import GroupUpdateSpeakingpolicy
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GroupUpdate")



@_attrs_define
class GroupUpdate:
    """ Leave out what stays; name, goal and joinPolicy may not be null.

        Attributes:
            conversation_state (ConversationState | None | Unset):
            goal (str | Unset):
            join_policy (GroupUpdateJoinpolicy | Unset):
            name (str | Unset):
            speaking_policy (GroupUpdateSpeakingpolicy | Unset):
            turn_timeout_seconds (float | Unset):
     """

    conversation_state: ConversationState | None | Unset = UNSET
    goal: str | Unset = UNSET
    join_policy: GroupUpdateJoinpolicy | Unset = UNSET
    name: str | Unset = UNSET
    speaking_policy: GroupUpdateSpeakingpolicy | Unset = UNSET
    turn_timeout_seconds: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        conversation_state: None | str | Unset
        if isinstance(self.conversation_state, Unset):
            conversation_state = UNSET
        elif isinstance(self.conversation_state, ConversationState):
            conversation_state = self.conversation_state.value
        else:
            conversation_state = self.conversation_state

        goal = self.goal

        join_policy: str | Unset = UNSET
        if not isinstance(self.join_policy, Unset):
            join_policy = self.join_policy.value


        name = self.name

        speaking_policy: str | Unset = UNSET
        if not isinstance(self.speaking_policy, Unset):
            speaking_policy = self.speaking_policy.value


        turn_timeout_seconds = self.turn_timeout_seconds


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
        if speaking_policy is not UNSET:
            field_dict["speakingPolicy"] = speaking_policy
        if turn_timeout_seconds is not UNSET:
            field_dict["turnTimeoutSeconds"] = turn_timeout_seconds

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


        goal = d.pop("goal", UNSET)

        _join_policy = d.pop("joinPolicy", UNSET)
        join_policy: GroupUpdateJoinpolicy | Unset
        if isinstance(_join_policy,  Unset):
            join_policy = UNSET
        else:
            join_policy = GroupUpdateJoinpolicy(_join_policy)




        name = d.pop("name", UNSET)

        _speaking_policy = d.pop("speakingPolicy", UNSET)
        speaking_policy: GroupUpdateSpeakingpolicy | Unset
        if isinstance(_speaking_policy,  Unset):
            speaking_policy = UNSET
        else:
            speaking_policy = GroupUpdateSpeakingpolicy(_speaking_policy)




        turn_timeout_seconds = d.pop("turnTimeoutSeconds", UNSET)

        group_update = cls(
            conversation_state=conversation_state,
            goal=goal,
            join_policy=join_policy,
            name=name,
            speaking_policy=speaking_policy,
            turn_timeout_seconds=turn_timeout_seconds,
        )

        return group_update

