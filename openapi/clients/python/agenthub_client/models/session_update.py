from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_update_state_type_0 import SessionUpdateStateType0
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.receiver_spec import ReceiverSpec





T = TypeVar("T", bound="SessionUpdate")



@_attrs_define
class SessionUpdate:
    """ 
        Attributes:
            goal (None | str | Unset):
            receivers (list[ReceiverSpec] | None | Unset):
            state (None | SessionUpdateStateType0 | Unset):
            title (None | str | Unset):
     """

    goal: None | str | Unset = UNSET
    receivers: list[ReceiverSpec] | None | Unset = UNSET
    state: None | SessionUpdateStateType0 | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.receiver_spec import ReceiverSpec # noqa: PLC0415
        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        receivers: list[dict[str, Any]] | None | Unset
        if isinstance(self.receivers, Unset):
            receivers = UNSET
        elif isinstance(self.receivers, list):
            receivers = []
            for receivers_type_0_item_data in self.receivers:
                receivers_type_0_item = receivers_type_0_item_data.to_dict()
                receivers.append(receivers_type_0_item)


        else:
            receivers = self.receivers

        state: None | str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        elif isinstance(self.state, SessionUpdateStateType0):
            state = self.state.value
        else:
            state = self.state

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if goal is not UNSET:
            field_dict["goal"] = goal
        if receivers is not UNSET:
            field_dict["receivers"] = receivers
        if state is not UNSET:
            field_dict["state"] = state
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receiver_spec import ReceiverSpec # noqa: PLC0415
        d = dict(src_dict)
        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        def _parse_receivers(data: object) -> list[ReceiverSpec] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                receivers_type_0 = []
                _receivers_type_0 = data
                for receivers_type_0_item_data in (_receivers_type_0):
                    receivers_type_0_item = ReceiverSpec.from_dict(receivers_type_0_item_data)



                    receivers_type_0.append(receivers_type_0_item)

                return receivers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ReceiverSpec] | None | Unset, data)

        receivers = _parse_receivers(d.pop("receivers", UNSET))


        def _parse_state(data: object) -> None | SessionUpdateStateType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = SessionUpdateStateType0(data)



                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionUpdateStateType0 | Unset, data)

        state = _parse_state(d.pop("state", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        session_update = cls(
            goal=goal,
            receivers=receivers,
            state=state,
            title=title,
        )

        return session_update

