from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="HubMetadata")



@_attrs_define
class HubMetadata:
    """ 
        Attributes:
            api_version (str):
            issuer (str):
            jwks_uri (str):
            token_endpoint (str):
            ca_uri (None | str | Unset):
            crl_uri (None | str | Unset):
     """

    api_version: str
    issuer: str
    jwks_uri: str
    token_endpoint: str
    ca_uri: None | str | Unset = UNSET
    crl_uri: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        issuer = self.issuer

        jwks_uri = self.jwks_uri

        token_endpoint = self.token_endpoint

        ca_uri: None | str | Unset
        if isinstance(self.ca_uri, Unset):
            ca_uri = UNSET
        else:
            ca_uri = self.ca_uri

        crl_uri: None | str | Unset
        if isinstance(self.crl_uri, Unset):
            crl_uri = UNSET
        else:
            crl_uri = self.crl_uri


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "apiVersion": api_version,
            "issuer": issuer,
            "jwksUri": jwks_uri,
            "tokenEndpoint": token_endpoint,
        })
        if ca_uri is not UNSET:
            field_dict["caUri"] = ca_uri
        if crl_uri is not UNSET:
            field_dict["crlUri"] = crl_uri

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_version = d.pop("apiVersion")

        issuer = d.pop("issuer")

        jwks_uri = d.pop("jwksUri")

        token_endpoint = d.pop("tokenEndpoint")

        def _parse_ca_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ca_uri = _parse_ca_uri(d.pop("caUri", UNSET))


        def _parse_crl_uri(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        crl_uri = _parse_crl_uri(d.pop("crlUri", UNSET))


        hub_metadata = cls(
            api_version=api_version,
            issuer=issuer,
            jwks_uri=jwks_uri,
            token_endpoint=token_endpoint,
            ca_uri=ca_uri,
            crl_uri=crl_uri,
        )

        return hub_metadata

