from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.protocol_binding_protocol import ProtocolBindingProtocol
from ..models.protocol_binding_transport_type_0 import ProtocolBindingTransportType0
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ProtocolBinding")



@_attrs_define
class ProtocolBinding:
    """ A protocol the agent answers, and where (what an agent declares).

        Attributes:
            protocol (ProtocolBindingProtocol):
            transport (None | ProtocolBindingTransportType0 | Unset): an `a2a` binding's transport (A2A's
                `protocolBinding`): `JSONRPC` (the default) or `HTTP+JSON` (REST, its paths below `url`); only for `a2a`
            url (None | str | Unset): by default, the `endpointUrl`
            version (None | str | Unset):
     """

    protocol: ProtocolBindingProtocol
    transport: None | ProtocolBindingTransportType0 | Unset = UNSET
    url: None | str | Unset = UNSET
    version: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        protocol = self.protocol.value

        transport: None | str | Unset
        if isinstance(self.transport, Unset):
            transport = UNSET
        elif isinstance(self.transport, ProtocolBindingTransportType0):
            transport = self.transport.value
        else:
            transport = self.transport

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        version: None | str | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "protocol": protocol,
        })
        if transport is not UNSET:
            field_dict["transport"] = transport
        if url is not UNSET:
            field_dict["url"] = url
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        protocol = ProtocolBindingProtocol(d.pop("protocol"))




        def _parse_transport(data: object) -> None | ProtocolBindingTransportType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transport_type_0 = ProtocolBindingTransportType0(data)



                return transport_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProtocolBindingTransportType0 | Unset, data)

        transport = _parse_transport(d.pop("transport", UNSET))


        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))


        def _parse_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        protocol_binding = cls(
            protocol=protocol,
            transport=transport,
            url=url,
            version=version,
        )

        return protocol_binding

