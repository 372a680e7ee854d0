from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trigger_view_outcome_type_0 import TriggerViewOutcomeType0
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="TriggerView")



@_attrs_define
class TriggerView:
    """ 
        Attributes:
            created_at (datetime.datetime):
            created_by (str):
            group_id (str):
            id (str):
            task_ids (list[str]):
            deadline (datetime.datetime | None | Unset):
            fired_at (datetime.datetime | None | Unset): when it fired, or was cancelled by the group's conclusion
            outcome (None | TriggerViewOutcomeType0 | Unset):
     """

    created_at: datetime.datetime
    created_by: str
    group_id: str
    id: str
    task_ids: list[str]
    deadline: datetime.datetime | None | Unset = UNSET
    fired_at: datetime.datetime | None | Unset = UNSET
    outcome: None | TriggerViewOutcomeType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by = self.created_by

        group_id = self.group_id

        id = self.id

        task_ids = self.task_ids



        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        fired_at: None | str | Unset
        if isinstance(self.fired_at, Unset):
            fired_at = UNSET
        elif isinstance(self.fired_at, datetime.datetime):
            fired_at = self.fired_at.isoformat()
        else:
            fired_at = self.fired_at

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        elif isinstance(self.outcome, TriggerViewOutcomeType0):
            outcome = self.outcome.value
        else:
            outcome = self.outcome


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "createdAt": created_at,
            "createdBy": created_by,
            "groupId": group_id,
            "id": id,
            "taskIds": task_ids,
        })
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if fired_at is not UNSET:
            field_dict["firedAt"] = fired_at
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        created_by = d.pop("createdBy")

        group_id = d.pop("groupId")

        id = d.pop("id")

        task_ids = cast(list[str], d.pop("taskIds"))


        def _parse_deadline(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)



                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))


        def _parse_fired_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fired_at_type_0 = datetime.datetime.fromisoformat(data)



                return fired_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        fired_at = _parse_fired_at(d.pop("firedAt", UNSET))


        def _parse_outcome(data: object) -> None | TriggerViewOutcomeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = TriggerViewOutcomeType0(data)



                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TriggerViewOutcomeType0 | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))


        trigger_view = cls(
            created_at=created_at,
            created_by=created_by,
            group_id=group_id,
            id=id,
            task_ids=task_ids,
            deadline=deadline,
            fired_at=fired_at,
            outcome=outcome,
        )

        return trigger_view

