from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="TokenResponse")



@_attrs_define
class TokenResponse:
    """ 
        Attributes:
            access_token (str):
            expires_in (int):
            token_type (Literal['bearer'] | Unset):  Default: 'bearer'.
     """

    access_token: str
    expires_in: int
    token_type: Literal['bearer'] | Unset = 'bearer'





    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        expires_in = self.expires_in

        token_type = self.token_type


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "accessToken": access_token,
            "expiresIn": expires_in,
        })
        if token_type is not UNSET:
            field_dict["tokenType"] = token_type

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_token = d.pop("accessToken")

        expires_in = d.pop("expiresIn")

        token_type = cast(Literal['bearer'] | Unset , d.pop("tokenType", UNSET))
        if token_type != 'bearer'and not isinstance(token_type, Unset):
            raise ValueError(f"tokenType must match const 'bearer', got '{token_type}'")

        token_response = cls(
            access_token=access_token,
            expires_in=expires_in,
            token_type=token_type,
        )

        return token_response

