from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.certificate_summary_state import CertificateSummaryState
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CertificateSummary")



@_attrs_define
class CertificateSummary:
    """ The agent's newest certificate from the hub's CA (``none``: it never asked for one);
    what it does not have is left out.

        Attributes:
            state (CertificateSummaryState):
            not_after (datetime.datetime | None | Unset):
            revoked_at (datetime.datetime | None | Unset):
            serial (None | str | Unset): hexadecimal, lowercase
     """

    state: CertificateSummaryState
    not_after: datetime.datetime | None | Unset = UNSET
    revoked_at: datetime.datetime | None | Unset = UNSET
    serial: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        not_after: None | str | Unset
        if isinstance(self.not_after, Unset):
            not_after = UNSET
        elif isinstance(self.not_after, datetime.datetime):
            not_after = self.not_after.isoformat()
        else:
            not_after = self.not_after

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        serial: None | str | Unset
        if isinstance(self.serial, Unset):
            serial = UNSET
        else:
            serial = self.serial


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "state": state,
        })
        if not_after is not UNSET:
            field_dict["notAfter"] = not_after
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at
        if serial is not UNSET:
            field_dict["serial"] = serial

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state = CertificateSummaryState(d.pop("state"))




        def _parse_not_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                not_after_type_0 = datetime.datetime.fromisoformat(data)



                return not_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        not_after = _parse_not_after(d.pop("notAfter", UNSET))


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


        def _parse_serial(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        serial = _parse_serial(d.pop("serial", UNSET))


        certificate_summary = cls(
            state=state,
            not_after=not_after,
            revoked_at=revoked_at,
            serial=serial,
        )

        return certificate_summary

