from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.client_standing_kind import ClientStandingKind






T = TypeVar("T", bound="ClientStanding")



@_attrs_define
class ClientStanding:
    """ Whether a token's client may still call: an agent still registered, an application
    not revoked (a kit partner asks before it takes the client's token).

        Attributes:
            active (bool):
            client_id (str):
            kind (ClientStandingKind):
     """

    active: bool
    client_id: str
    kind: ClientStandingKind





    def to_dict(self) -> dict[str, Any]:
        active = self.active

        client_id = self.client_id

        kind = self.kind.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "active": active,
            "clientId": client_id,
            "kind": kind,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        client_id = d.pop("clientId")

        kind = ClientStandingKind(d.pop("kind"))




        client_standing = cls(
            active=active,
            client_id=client_id,
            kind=kind,
        )

        return client_standing

