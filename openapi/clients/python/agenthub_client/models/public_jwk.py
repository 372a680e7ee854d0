from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="PublicJwk")



@_attrs_define
class PublicJwk:
    """ An ES256 public key. A private member (``d``) is refused: it must never leave the agent.

        Attributes:
            crv (Literal['P-256']):
            kty (Literal['EC']):
            x (str):
            y (str):
            alg (Literal['ES256'] | None | Unset):
            kid (None | str | Unset):
            use (Literal['sig'] | None | Unset):
     """

    crv: Literal['P-256']
    kty: Literal['EC']
    x: str
    y: str
    alg: Literal['ES256'] | None | Unset = UNSET
    kid: None | str | Unset = UNSET
    use: Literal['sig'] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        crv = self.crv

        kty = self.kty

        x = self.x

        y = self.y

        alg: Literal['ES256'] | None | Unset
        if isinstance(self.alg, Unset):
            alg = UNSET
        else:
            alg = self.alg

        kid: None | str | Unset
        if isinstance(self.kid, Unset):
            kid = UNSET
        else:
            kid = self.kid

        use: Literal['sig'] | None | Unset
        if isinstance(self.use, Unset):
            use = UNSET
        else:
            use = self.use


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "crv": crv,
            "kty": kty,
            "x": x,
            "y": y,
        })
        if alg is not UNSET:
            field_dict["alg"] = alg
        if kid is not UNSET:
            field_dict["kid"] = kid
        if use is not UNSET:
            field_dict["use"] = use

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        crv = cast(Literal['P-256'] , d.pop("crv"))
        if crv != 'P-256':
            raise ValueError(f"crv must match const 'P-256', got '{crv}'")

        kty = cast(Literal['EC'] , d.pop("kty"))
        if kty != 'EC':
            raise ValueError(f"kty must match const 'EC', got '{kty}'")

        x = d.pop("x")

        y = d.pop("y")

        def _parse_alg(data: object) -> Literal['ES256'] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            alg_type_0 = cast(Literal['ES256'] , data)
            if alg_type_0 != 'ES256':
                raise ValueError(f"alg_type_0 must match const 'ES256', got '{alg_type_0}'")
            return alg_type_0
            return cast(Literal['ES256'] | None | Unset, data)

        alg = _parse_alg(d.pop("alg", UNSET))


        def _parse_kid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kid = _parse_kid(d.pop("kid", UNSET))


        def _parse_use(data: object) -> Literal['sig'] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            use_type_0 = cast(Literal['sig'] , data)
            if use_type_0 != 'sig':
                raise ValueError(f"use_type_0 must match const 'sig', got '{use_type_0}'")
            return use_type_0
            return cast(Literal['sig'] | None | Unset, data)

        use = _parse_use(d.pop("use", UNSET))


        public_jwk = cls(
            crv=crv,
            kty=kty,
            x=x,
            y=y,
            alg=alg,
            kid=kid,
            use=use,
        )


        public_jwk.additional_properties = d
        return public_jwk

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
