from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TokenForm")



@_attrs_define
class TokenForm:
    """ The token request's form (RFC 6749 4.4.2, 2.3.1; RFC 7523 2.2; RFC 8707 2), each
    parameter optional here, so that a missing one is OAuth's own ``invalid_request``, not a
    validation error.

        Attributes:
            client_assertion (None | str | Unset):
            client_assertion_type (None | str | Unset):
            client_id (None | str | Unset):
            client_secret (None | str | Unset):
            grant_type (None | str | Unset):
            resource (None | str | Unset):
            scope (None | str | Unset):
     """

    client_assertion: None | str | Unset = UNSET
    client_assertion_type: None | str | Unset = UNSET
    client_id: None | str | Unset = UNSET
    client_secret: None | str | Unset = UNSET
    grant_type: None | str | Unset = UNSET
    resource: None | str | Unset = UNSET
    scope: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_assertion: None | str | Unset
        if isinstance(self.client_assertion, Unset):
            client_assertion = UNSET
        else:
            client_assertion = self.client_assertion

        client_assertion_type: None | str | Unset
        if isinstance(self.client_assertion_type, Unset):
            client_assertion_type = UNSET
        else:
            client_assertion_type = self.client_assertion_type

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        client_secret: None | str | Unset
        if isinstance(self.client_secret, Unset):
            client_secret = UNSET
        else:
            client_secret = self.client_secret

        grant_type: None | str | Unset
        if isinstance(self.grant_type, Unset):
            grant_type = UNSET
        else:
            grant_type = self.grant_type

        resource: None | str | Unset
        if isinstance(self.resource, Unset):
            resource = UNSET
        else:
            resource = self.resource

        scope: None | str | Unset
        if isinstance(self.scope, Unset):
            scope = UNSET
        else:
            scope = self.scope


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if client_assertion is not UNSET:
            field_dict["client_assertion"] = client_assertion
        if client_assertion_type is not UNSET:
            field_dict["client_assertion_type"] = client_assertion_type
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret
        if grant_type is not UNSET:
            field_dict["grant_type"] = grant_type
        if resource is not UNSET:
            field_dict["resource"] = resource
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_client_assertion(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_assertion = _parse_client_assertion(d.pop("client_assertion", UNSET))


        def _parse_client_assertion_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_assertion_type = _parse_client_assertion_type(d.pop("client_assertion_type", UNSET))


        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("client_id", UNSET))


        def _parse_client_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_secret = _parse_client_secret(d.pop("client_secret", UNSET))


        def _parse_grant_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        grant_type = _parse_grant_type(d.pop("grant_type", UNSET))


        def _parse_resource(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        resource = _parse_resource(d.pop("resource", UNSET))


        def _parse_scope(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        scope = _parse_scope(d.pop("scope", UNSET))


        token_form = cls(
            client_assertion=client_assertion,
            client_assertion_type=client_assertion_type,
            client_id=client_id,
            client_secret=client_secret,
            grant_type=grant_type,
            resource=resource,
            scope=scope,
        )


        token_form.additional_properties = d
        return token_form

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
