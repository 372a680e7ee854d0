from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="OAuthClientIssued")



@_attrs_define
class OAuthClientIssued:
    """ 
        Attributes:
            client_id (str):
            client_secret (str): Shown this once: the hub keeps only its hash.
            created_at (datetime.datetime):
            name (str):
            revoked_at (datetime.datetime | None | Unset):
     """

    client_id: str
    client_secret: str
    created_at: datetime.datetime
    name: str
    revoked_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        client_secret = self.client_secret

        created_at = self.created_at.isoformat()

        name = self.name

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "clientId": client_id,
            "clientSecret": client_secret,
            "createdAt": created_at,
            "name": name,
        })
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        client_secret = d.pop("clientSecret")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        name = d.pop("name")

        def _parse_revoked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt", UNSET))


        o_auth_client_issued = cls(
            client_id=client_id,
            client_secret=client_secret,
            created_at=created_at,
            name=name,
            revoked_at=revoked_at,
        )

        return o_auth_client_issued

