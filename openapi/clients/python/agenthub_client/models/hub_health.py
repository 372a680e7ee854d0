from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.hub_health_broker import HubHealthBroker
from ..models.hub_health_store import HubHealthStore






T = TypeVar("T", bound="HubHealth")



@_attrs_define
class HubHealth:
    """ One replica's health, as the console's strip shows it.

        Attributes:
            broker (HubHealthBroker):
            deliveries_per_second (float): events written to this replica's streams, per second, lately
            ingest_per_second (float): messages this replica recorded, per second, lately
            open_streams (int): event streams open on this replica
            store (HubHealthStore):
            version (str):
     """

    broker: HubHealthBroker
    deliveries_per_second: float
    ingest_per_second: float
    open_streams: int
    store: HubHealthStore
    version: str





    def to_dict(self) -> dict[str, Any]:
        broker = self.broker.value

        deliveries_per_second = self.deliveries_per_second

        ingest_per_second = self.ingest_per_second

        open_streams = self.open_streams

        store = self.store.value

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "broker": broker,
            "deliveriesPerSecond": deliveries_per_second,
            "ingestPerSecond": ingest_per_second,
            "openStreams": open_streams,
            "store": store,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        broker = HubHealthBroker(d.pop("broker"))




        deliveries_per_second = d.pop("deliveriesPerSecond")

        ingest_per_second = d.pop("ingestPerSecond")

        open_streams = d.pop("openStreams")

        store = HubHealthStore(d.pop("store"))




        version = d.pop("version")

        hub_health = cls(
            broker=broker,
            deliveries_per_second=deliveries_per_second,
            ingest_per_second=ingest_per_second,
            open_streams=open_streams,
            store=store,
            version=version,
        )

        return hub_health

