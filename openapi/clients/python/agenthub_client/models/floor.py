from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Floor")



@_attrs_define
class Floor:
    """ Who may speak under ``turns``: ``speakers`` (null: every member) until ``deadline``.

        Attributes:
            deadline (datetime.datetime | None | Unset):
            speakers (list[str] | None | Unset):
     """

    deadline: datetime.datetime | None | Unset = UNSET
    speakers: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        speakers: list[str] | None | Unset
        if isinstance(self.speakers, Unset):
            speakers = UNSET
        elif isinstance(self.speakers, list):
            speakers = self.speakers


        else:
            speakers = self.speakers


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if speakers is not UNSET:
            field_dict["speakers"] = speakers

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
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


        def _parse_speakers(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                speakers_type_0 = cast(list[str], data)

                return speakers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        speakers = _parse_speakers(d.pop("speakers", UNSET))


        floor = cls(
            deadline=deadline,
            speakers=speakers,
        )

        return floor

