from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AgentName")



@_attrs_define
class AgentName:
    """ Who an id names, also after the agent deregistered: the record (a group's owner, a
    message's sender) keeps naming the agents that left.

        Attributes:
            id (str):
            name (str):
            deregistered_at (datetime.datetime | None | Unset): when it deregistered; null while it is registered
     """

    id: str
    name: str
    deregistered_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        deregistered_at: None | str | Unset
        if isinstance(self.deregistered_at, Unset):
            deregistered_at = UNSET
        elif isinstance(self.deregistered_at, datetime.datetime):
            deregistered_at = self.deregistered_at.isoformat()
        else:
            deregistered_at = self.deregistered_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
        })
        if deregistered_at is not UNSET:
            field_dict["deregisteredAt"] = deregistered_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_deregistered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deregistered_at_type_0 = datetime.datetime.fromisoformat(data)



                return deregistered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deregistered_at = _parse_deregistered_at(d.pop("deregisteredAt", UNSET))


        agent_name = cls(
            id=id,
            name=name,
            deregistered_at=deregistered_at,
        )

        return agent_name

