from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.operator_session_state import OperatorSessionState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.session_bridge_view import SessionBridgeView
  from ..models.session_receiver import SessionReceiver
  from ..models.session_sender import SessionSender





T = TypeVar("T", bound="OperatorSession")



@_attrs_define
class OperatorSession:
    """ A session as the operator lists it: with how many tasks and groups it has.

        Attributes:
            created_at (datetime.datetime):
            group_count (int): the session's groups, sub-groups included
            id (str):
            receivers (list[SessionReceiver]):
            sender (SessionSender):
            state (OperatorSessionState):
            task_count (int): the session's tasks, point-to-point and in groups
            updated_at (datetime.datetime):
            bridge (None | SessionBridgeView | Unset):
            closed_at (datetime.datetime | None | Unset):
            goal (None | str | Unset):
            title (None | str | Unset):
     """

    created_at: datetime.datetime
    group_count: int
    id: str
    receivers: list[SessionReceiver]
    sender: SessionSender
    state: OperatorSessionState
    task_count: int
    updated_at: datetime.datetime
    bridge: None | SessionBridgeView | Unset = UNSET
    closed_at: datetime.datetime | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_bridge_view import SessionBridgeView # noqa: PLC0415
        from ..models.session_receiver import SessionReceiver # noqa: PLC0415
        from ..models.session_sender import SessionSender # noqa: PLC0415
        created_at = self.created_at.isoformat()

        group_count = self.group_count

        id = self.id

        receivers = []
        for receivers_item_data in self.receivers:
            receivers_item = receivers_item_data.to_dict()
            receivers.append(receivers_item)



        sender = self.sender.to_dict()

        state = self.state.value

        task_count = self.task_count

        updated_at = self.updated_at.isoformat()

        bridge: dict[str, Any] | None | Unset
        if isinstance(self.bridge, Unset):
            bridge = UNSET
        elif isinstance(self.bridge, SessionBridgeView):
            bridge = self.bridge.to_dict()
        else:
            bridge = self.bridge

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "createdAt": created_at,
            "groupCount": group_count,
            "id": id,
            "receivers": receivers,
            "sender": sender,
            "state": state,
            "taskCount": task_count,
            "updatedAt": updated_at,
        })
        if bridge is not UNSET:
            field_dict["bridge"] = bridge
        if closed_at is not UNSET:
            field_dict["closedAt"] = closed_at
        if goal is not UNSET:
            field_dict["goal"] = goal
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_bridge_view import SessionBridgeView # noqa: PLC0415
        from ..models.session_receiver import SessionReceiver # noqa: PLC0415
        from ..models.session_sender import SessionSender # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        group_count = d.pop("groupCount")

        id = d.pop("id")

        receivers = []
        _receivers = d.pop("receivers")
        for receivers_item_data in (_receivers):
            receivers_item = SessionReceiver.from_dict(receivers_item_data)



            receivers.append(receivers_item)


        sender = SessionSender.from_dict(d.pop("sender"))




        state = OperatorSessionState(d.pop("state"))




        task_count = d.pop("taskCount")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        def _parse_bridge(data: object) -> None | SessionBridgeView | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                bridge_type_0 = SessionBridgeView.from_dict(data)



                return bridge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionBridgeView | Unset, data)

        bridge = _parse_bridge(d.pop("bridge", UNSET))


        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)



                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closedAt", UNSET))


        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        operator_session = cls(
            created_at=created_at,
            group_count=group_count,
            id=id,
            receivers=receivers,
            sender=sender,
            state=state,
            task_count=task_count,
            updated_at=updated_at,
            bridge=bridge,
            closed_at=closed_at,
            goal=goal,
            title=title,
        )

        return operator_session

