from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AuthorizationServerMetadata")



@_attrs_define
class AuthorizationServerMetadata:
    """ RFC 8414 2: what an OAuth client reads to get a token from the hub.

        Attributes:
            grant_types_supported (list[str]):
            issuer (str):
            jwks_uri (str):
            response_types_supported (list[str]):
            scopes_supported (list[str]):
            token_endpoint (str):
            token_endpoint_auth_methods_supported (list[str]):
            token_endpoint_auth_signing_alg_values_supported (list[str]):
     """

    grant_types_supported: list[str]
    issuer: str
    jwks_uri: str
    response_types_supported: list[str]
    scopes_supported: list[str]
    token_endpoint: str
    token_endpoint_auth_methods_supported: list[str]
    token_endpoint_auth_signing_alg_values_supported: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        grant_types_supported = self.grant_types_supported



        issuer = self.issuer

        jwks_uri = self.jwks_uri

        response_types_supported = self.response_types_supported



        scopes_supported = self.scopes_supported



        token_endpoint = self.token_endpoint

        token_endpoint_auth_methods_supported = self.token_endpoint_auth_methods_supported



        token_endpoint_auth_signing_alg_values_supported = self.token_endpoint_auth_signing_alg_values_supported




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "grant_types_supported": grant_types_supported,
            "issuer": issuer,
            "jwks_uri": jwks_uri,
            "response_types_supported": response_types_supported,
            "scopes_supported": scopes_supported,
            "token_endpoint": token_endpoint,
            "token_endpoint_auth_methods_supported": token_endpoint_auth_methods_supported,
            "token_endpoint_auth_signing_alg_values_supported": token_endpoint_auth_signing_alg_values_supported,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grant_types_supported = cast(list[str], d.pop("grant_types_supported"))


        issuer = d.pop("issuer")

        jwks_uri = d.pop("jwks_uri")

        response_types_supported = cast(list[str], d.pop("response_types_supported"))


        scopes_supported = cast(list[str], d.pop("scopes_supported"))


        token_endpoint = d.pop("token_endpoint")

        token_endpoint_auth_methods_supported = cast(list[str], d.pop("token_endpoint_auth_methods_supported"))


        token_endpoint_auth_signing_alg_values_supported = cast(list[str], d.pop("token_endpoint_auth_signing_alg_values_supported"))


        authorization_server_metadata = cls(
            grant_types_supported=grant_types_supported,
            issuer=issuer,
            jwks_uri=jwks_uri,
            response_types_supported=response_types_supported,
            scopes_supported=scopes_supported,
            token_endpoint=token_endpoint,
            token_endpoint_auth_methods_supported=token_endpoint_auth_methods_supported,
            token_endpoint_auth_signing_alg_values_supported=token_endpoint_auth_signing_alg_values_supported,
        )


        authorization_server_metadata.additional_properties = d
        return authorization_server_metadata

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
