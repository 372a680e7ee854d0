from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.conversation_state import ConversationState
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GroupTreeNode")



@_attrs_define
class GroupTreeNode:
    """ 
        Attributes:
            conversation_state (ConversationState): IoA's conversation flow control (§2.3.3); ``conclusion`` is final.
            depth (int):
            id (str):
            name (str):
            children (list[GroupTreeNode] | Unset):
            parent_group_id (None | str | Unset):
     """

    conversation_state: ConversationState
    depth: int
    id: str
    name: str
    children: list[GroupTreeNode] | Unset = UNSET
    parent_group_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        conversation_state = self.conversation_state.value

        depth = self.depth

        id = self.id

        name = self.name

        children: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.children, Unset):
            children = []
            for children_item_data in self.children:
                children_item = children_item_data.to_dict()
                children.append(children_item)



        parent_group_id: None | str | Unset
        if isinstance(self.parent_group_id, Unset):
            parent_group_id = UNSET
        else:
            parent_group_id = self.parent_group_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "conversationState": conversation_state,
            "depth": depth,
            "id": id,
            "name": name,
        })
        if children is not UNSET:
            field_dict["children"] = children
        if parent_group_id is not UNSET:
            field_dict["parentGroupId"] = parent_group_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        conversation_state = ConversationState(d.pop("conversationState"))




        depth = d.pop("depth")

        id = d.pop("id")

        name = d.pop("name")

        _children = d.pop("children", UNSET)
        children: list[GroupTreeNode] | Unset = UNSET
        if _children is not UNSET:
            children = []
            for children_item_data in _children:
                children_item = GroupTreeNode.from_dict(children_item_data)



                children.append(children_item)


        def _parse_parent_group_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_group_id = _parse_parent_group_id(d.pop("parentGroupId", UNSET))


        group_tree_node = cls(
            conversation_state=conversation_state,
            depth=depth,
            id=id,
            name=name,
            children=children,
            parent_group_id=parent_group_id,
        )

        return group_tree_node

