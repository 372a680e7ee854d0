from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bound_protocol_protocol import BoundProtocolProtocol
from ..models.bound_protocol_transport_type_0 import BoundProtocolTransportType0
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BoundProtocol")



@_attrs_define
class BoundProtocol:
    """ A protocol the agent answers, and where (as its card shows it).

        Attributes:
            protocol (BoundProtocolProtocol):
            url (str):
            transport (BoundProtocolTransportType0 | None | Unset): an `a2a` binding's transport (A2A's `protocolBinding`):
                `JSONRPC` (the default) or `HTTP+JSON` (REST, its paths below `url`); only for `a2a`
            version (None | str | Unset):
     """

    protocol: BoundProtocolProtocol
    url: str
    transport: BoundProtocolTransportType0 | None | Unset = UNSET
    version: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        protocol = self.protocol.value

        url = self.url

        transport: None | str | Unset
        if isinstance(self.transport, Unset):
            transport = UNSET
        elif isinstance(self.transport, BoundProtocolTransportType0):
            transport = self.transport.value
        else:
            transport = self.transport

        version: None | str | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "protocol": protocol,
            "url": url,
        })
        if transport is not UNSET:
            field_dict["transport"] = transport
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        protocol = BoundProtocolProtocol(d.pop("protocol"))




        url = d.pop("url")

        def _parse_transport(data: object) -> BoundProtocolTransportType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transport_type_0 = BoundProtocolTransportType0(data)



                return transport_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BoundProtocolTransportType0 | None | Unset, data)

        transport = _parse_transport(d.pop("transport", UNSET))


        def _parse_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        bound_protocol = cls(
            protocol=protocol,
            url=url,
            transport=transport,
            version=version,
        )

        return bound_protocol

