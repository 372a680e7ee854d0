"""What a running hub holds, as tests read it: the one way a test reaches the app's state
(``app.state`` is the app's own business; this names each part with its type)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth.keys import HubKeys
from app.broker import Broker
from app.certificates.revocation_list import RevocationLists
from app.config import Settings
from app.db import SessionFactory
from app.metrics import HubMetrics
from app.records.ingest import Ingest
from app.streams.operator_feed import OperatorFeed
from app.streams.presence import Presence


class HubParts:
    def __init__(self, app: Any) -> None:
        self._state = app.state

    @property
    def settings(self) -> Settings:
        settings: Settings = self._state.settings
        return settings

    @property
    def keys(self) -> HubKeys:
        keys: HubKeys = self._state.keys
        return keys

    @property
    def metrics(self) -> HubMetrics:
        metrics: HubMetrics = self._state.metrics
        return metrics

    @property
    def broker(self) -> Broker:
        broker: Broker = self._state.broker
        return broker

    @property
    def presence(self) -> Presence:
        presence: Presence = self._state.presence
        return presence

    @property
    def operator_feed(self) -> OperatorFeed:
        feed: OperatorFeed = self._state.operator_feed
        return feed

    @property
    def session_factory(self) -> SessionFactory:
        factory: SessionFactory = self._state.session_factory
        return factory

    @property
    def engine(self) -> AsyncEngine:
        engine: AsyncEngine = self._state.engine
        return engine

    @property
    def revocation_lists(self) -> RevocationLists:
        lists: RevocationLists = self._state.revocation_lists
        return lists

    @property
    def ingest(self) -> Ingest:
        ingest: Ingest = self._state.ingest
        return ingest


def parts(app: Any) -> HubParts:
    """The parts of the hub ``app`` (started: what its lifespan makes is there)."""
    return HubParts(app)
