from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.task_state import TaskState
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.bridge_caller import BridgeCaller
  from ..models.product import Product
  from ..models.task_status import TaskStatus





T = TypeVar("T", bound="TaskView")



@_attrs_define
class TaskView:
    """ 
        Attributes:
            created_at (datetime.datetime):
            dependencies (list[str]):
            id (str):
            leader_id (str):
            partner_id (str):
            products (list[Product]):
            session_id (str):
            state (Literal['submitted'] | TaskState): `submitted` until the partner's first answer, then the task's AIP
                state
            status_history (list[TaskStatus]):
            updated_at (datetime.datetime):
            caller (BridgeCaller | None | Unset): a bridge session's task (its leader serves an A2A caller): who called, an
                agent or an application; absent when the caller proved nothing
            group_id (None | str | Unset):
            parent_task_id (None | str | Unset):
            released_at (datetime.datetime | None | Unset): when its session closed while it was still open: the hub
                released it (its partner was told, event `task.released`); its `state` stays as its messages left it
            status (None | TaskStatus | Unset):
     """

    created_at: datetime.datetime
    dependencies: list[str]
    id: str
    leader_id: str
    partner_id: str
    products: list[Product]
    session_id: str
    state: Literal['submitted'] | TaskState
    status_history: list[TaskStatus]
    updated_at: datetime.datetime
    caller: BridgeCaller | None | Unset = UNSET
    group_id: None | str | Unset = UNSET
    parent_task_id: None | str | Unset = UNSET
    released_at: datetime.datetime | None | Unset = UNSET
    status: None | TaskStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        from ..models.product import Product # noqa: PLC0415
        from ..models.task_status import TaskStatus # noqa: PLC0415
        created_at = self.created_at.isoformat()

        dependencies = self.dependencies



        id = self.id

        leader_id = self.leader_id

        partner_id = self.partner_id

        products = []
        for products_item_data in self.products:
            products_item = products_item_data.to_dict()
            products.append(products_item)



        session_id = self.session_id

        state: Literal['submitted'] | str
        if isinstance(self.state, TaskState):
            state = self.state.value
        else:
            state = self.state

        status_history = []
        for status_history_item_data in self.status_history:
            status_history_item = status_history_item_data.to_dict()
            status_history.append(status_history_item)



        updated_at = self.updated_at.isoformat()

        caller: dict[str, Any] | None | Unset
        if isinstance(self.caller, Unset):
            caller = UNSET
        elif isinstance(self.caller, BridgeCaller):
            caller = self.caller.to_dict()
        else:
            caller = self.caller

        group_id: None | str | Unset
        if isinstance(self.group_id, Unset):
            group_id = UNSET
        else:
            group_id = self.group_id

        parent_task_id: None | str | Unset
        if isinstance(self.parent_task_id, Unset):
            parent_task_id = UNSET
        else:
            parent_task_id = self.parent_task_id

        released_at: None | str | Unset
        if isinstance(self.released_at, Unset):
            released_at = UNSET
        elif isinstance(self.released_at, datetime.datetime):
            released_at = self.released_at.isoformat()
        else:
            released_at = self.released_at

        status: dict[str, Any] | None | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, TaskStatus):
            status = self.status.to_dict()
        else:
            status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "createdAt": created_at,
            "dependencies": dependencies,
            "id": id,
            "leaderId": leader_id,
            "partnerId": partner_id,
            "products": products,
            "sessionId": session_id,
            "state": state,
            "statusHistory": status_history,
            "updatedAt": updated_at,
        })
        if caller is not UNSET:
            field_dict["caller"] = caller
        if group_id is not UNSET:
            field_dict["groupId"] = group_id
        if parent_task_id is not UNSET:
            field_dict["parentTaskId"] = parent_task_id
        if released_at is not UNSET:
            field_dict["releasedAt"] = released_at
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bridge_caller import BridgeCaller # noqa: PLC0415
        from ..models.product import Product # noqa: PLC0415
        from ..models.task_status import TaskStatus # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        dependencies = cast(list[str], d.pop("dependencies"))


        id = d.pop("id")

        leader_id = d.pop("leaderId")

        partner_id = d.pop("partnerId")

        products = []
        _products = d.pop("products")
        for products_item_data in (_products):
            products_item = Product.from_dict(products_item_data)



            products.append(products_item)


        session_id = d.pop("sessionId")

        def _parse_state(data: object) -> Literal['submitted'] | TaskState:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = TaskState(data)



                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            state_type_1 = cast(Literal['submitted'] , data)
            if state_type_1 != 'submitted':
                raise ValueError(f"state_type_1 must match const 'submitted', got '{state_type_1}'")
            return state_type_1

        state = _parse_state(d.pop("state"))


        status_history = []
        _status_history = d.pop("statusHistory")
        for status_history_item_data in (_status_history):
            status_history_item = TaskStatus.from_dict(status_history_item_data)



            status_history.append(status_history_item)


        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        def _parse_caller(data: object) -> BridgeCaller | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                caller_type_0 = BridgeCaller.from_dict(data)



                return caller_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BridgeCaller | None | Unset, data)

        caller = _parse_caller(d.pop("caller", UNSET))


        def _parse_group_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group_id = _parse_group_id(d.pop("groupId", UNSET))


        def _parse_parent_task_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_task_id = _parse_parent_task_id(d.pop("parentTaskId", UNSET))


        def _parse_released_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                released_at_type_0 = datetime.datetime.fromisoformat(data)



                return released_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        released_at = _parse_released_at(d.pop("releasedAt", UNSET))


        def _parse_status(data: object) -> None | TaskStatus | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                status_type_0 = TaskStatus.from_dict(data)



                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskStatus | Unset, data)

        status = _parse_status(d.pop("status", UNSET))


        task_view = cls(
            created_at=created_at,
            dependencies=dependencies,
            id=id,
            leader_id=leader_id,
            partner_id=partner_id,
            products=products,
            session_id=session_id,
            state=state,
            status_history=status_history,
            updated_at=updated_at,
            caller=caller,
            group_id=group_id,
            parent_task_id=parent_task_id,
            released_at=released_at,
            status=status,
        )

        return task_view

