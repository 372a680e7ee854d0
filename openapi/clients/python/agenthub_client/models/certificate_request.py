from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CertificateRequest")



@_attrs_define
class CertificateRequest:
    """ 
        Attributes:
            csr (str): a PEM PKCS#10 request signed with the agent's registered key; its subject is ignored (the hub names
                the agent)
     """

    csr: str





    def to_dict(self) -> dict[str, Any]:
        csr = self.csr


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "csr": csr,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csr = d.pop("csr")

        certificate_request = cls(
            csr=csr,
        )

        return certificate_request

