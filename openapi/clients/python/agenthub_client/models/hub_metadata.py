from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="HubMetadata")



@_attrs_define
class HubMetadata:
    """ 
        Attributes:
            api_version (str):
            issuer (str):
            jwks_uri (str):
            token_endpoint (str):
     """

    api_version: str
    issuer: str
    jwks_uri: str
    token_endpoint: str





    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        issuer = self.issuer

        jwks_uri = self.jwks_uri

        token_endpoint = self.token_endpoint


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "apiVersion": api_version,
            "issuer": issuer,
            "jwksUri": jwks_uri,
            "tokenEndpoint": token_endpoint,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_version = d.pop("apiVersion")

        issuer = d.pop("issuer")

        jwks_uri = d.pop("jwksUri")

        token_endpoint = d.pop("tokenEndpoint")

        hub_metadata = cls(
            api_version=api_version,
            issuer=issuer,
            jwks_uri=jwks_uri,
            token_endpoint=token_endpoint,
        )

        return hub_metadata

