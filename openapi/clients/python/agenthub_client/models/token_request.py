from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TokenRequest")



@_attrs_define
class TokenRequest:
    """ 
        Attributes:
            assertion (str):
     """

    assertion: str





    def to_dict(self) -> dict[str, Any]:
        assertion = self.assertion


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assertion": assertion,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assertion = d.pop("assertion")

        token_request = cls(
            assertion=assertion,
        )

        return token_request

