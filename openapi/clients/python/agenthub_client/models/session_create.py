from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.receiver_spec import ReceiverSpec
  from ..models.session_bridge import SessionBridge





T = TypeVar("T", bound="SessionCreate")



@_attrs_define
class SessionCreate:
    """ 
        Attributes:
            bridge (None | SessionBridge | Unset): a bridge session: its only receiver is the leader itself, in mode p2p
            goal (None | str | Unset):
            id (None | str | Unset):
            receivers (list[ReceiverSpec] | Unset):
            title (None | str | Unset):
     """

    bridge: None | SessionBridge | Unset = UNSET
    goal: None | str | Unset = UNSET
    id: None | str | Unset = UNSET
    receivers: list[ReceiverSpec] | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.receiver_spec import ReceiverSpec # noqa: PLC0415
        from ..models.session_bridge import SessionBridge # noqa: PLC0415
        bridge: dict[str, Any] | None | Unset
        if isinstance(self.bridge, Unset):
            bridge = UNSET
        elif isinstance(self.bridge, SessionBridge):
            bridge = self.bridge.to_dict()
        else:
            bridge = self.bridge

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        receivers: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.receivers, Unset):
            receivers = []
            for receivers_item_data in self.receivers:
                receivers_item = receivers_item_data.to_dict()
                receivers.append(receivers_item)



        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if bridge is not UNSET:
            field_dict["bridge"] = bridge
        if goal is not UNSET:
            field_dict["goal"] = goal
        if id is not UNSET:
            field_dict["id"] = id
        if receivers is not UNSET:
            field_dict["receivers"] = receivers
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receiver_spec import ReceiverSpec # noqa: PLC0415
        from ..models.session_bridge import SessionBridge # noqa: PLC0415
        d = dict(src_dict)
        def _parse_bridge(data: object) -> None | SessionBridge | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                bridge_type_0 = SessionBridge.from_dict(data)



                return bridge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionBridge | Unset, data)

        bridge = _parse_bridge(d.pop("bridge", UNSET))


        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        _receivers = d.pop("receivers", UNSET)
        receivers: list[ReceiverSpec] | Unset = UNSET
        if _receivers is not UNSET:
            receivers = []
            for receivers_item_data in _receivers:
                receivers_item = ReceiverSpec.from_dict(receivers_item_data)



                receivers.append(receivers_item)


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        session_create = cls(
            bridge=bridge,
            goal=goal,
            id=id,
            receivers=receivers,
            title=title,
        )

        return session_create

