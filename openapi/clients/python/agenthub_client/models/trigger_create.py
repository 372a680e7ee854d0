from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TriggerCreate")



@_attrs_define
class TriggerCreate:
    """ 
        Attributes:
            task_ids (list[str]):
            timeout_seconds (float | None | Unset):
     """

    task_ids: list[str]
    timeout_seconds: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        task_ids = self.task_ids



        timeout_seconds: float | None | Unset
        if isinstance(self.timeout_seconds, Unset):
            timeout_seconds = UNSET
        else:
            timeout_seconds = self.timeout_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "taskIds": task_ids,
        })
        if timeout_seconds is not UNSET:
            field_dict["timeoutSeconds"] = timeout_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        task_ids = cast(list[str], d.pop("taskIds"))


        def _parse_timeout_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timeout_seconds = _parse_timeout_seconds(d.pop("timeoutSeconds", UNSET))


        trigger_create = cls(
            task_ids=task_ids,
            timeout_seconds=timeout_seconds,
        )

        return trigger_create

