from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="IssuedCertificate")



@_attrs_define
class IssuedCertificate:
    """ 
        Attributes:
            agent_id (str):
            not_after (datetime.datetime):
            not_before (datetime.datetime):
            serial (str): the certificate's serial number, lowercase hexadecimal
            ca_certificate (None | str | Unset): the hub's CA certificate, PEM (in the answer to a request)
            certificate (None | str | Unset): the leaf, PEM (in the answer to its request)
            revoked_at (datetime.datetime | None | Unset):
     """

    agent_id: str
    not_after: datetime.datetime
    not_before: datetime.datetime
    serial: str
    ca_certificate: None | str | Unset = UNSET
    certificate: None | str | Unset = UNSET
    revoked_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        not_after = self.not_after.isoformat()

        not_before = self.not_before.isoformat()

        serial = self.serial

        ca_certificate: None | str | Unset
        if isinstance(self.ca_certificate, Unset):
            ca_certificate = UNSET
        else:
            ca_certificate = self.ca_certificate

        certificate: None | str | Unset
        if isinstance(self.certificate, Unset):
            certificate = UNSET
        else:
            certificate = self.certificate

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "notAfter": not_after,
            "notBefore": not_before,
            "serial": serial,
        })
        if ca_certificate is not UNSET:
            field_dict["caCertificate"] = ca_certificate
        if certificate is not UNSET:
            field_dict["certificate"] = certificate
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        not_after = datetime.datetime.fromisoformat(d.pop("notAfter"))




        not_before = datetime.datetime.fromisoformat(d.pop("notBefore"))




        serial = d.pop("serial")

        def _parse_ca_certificate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ca_certificate = _parse_ca_certificate(d.pop("caCertificate", UNSET))


        def _parse_certificate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        certificate = _parse_certificate(d.pop("certificate", UNSET))


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


        issued_certificate = cls(
            agent_id=agent_id,
            not_after=not_after,
            not_before=not_before,
            serial=serial,
            ca_certificate=ca_certificate,
            certificate=certificate,
            revoked_at=revoked_at,
        )

        return issued_certificate

