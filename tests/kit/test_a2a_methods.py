"""The endpoint names A2A's methods itself (so that an agent without A2A never imports
a2a-sdk): the names must be a2a-sdk's own, v1.0 and v0.3."""

from __future__ import annotations

from a2a.server.routes import jsonrpc_dispatcher

from agenthub.a2a.serving import ANONYMOUS_METHODS, V03_METHODS, V10_METHODS


def test_the_method_names_are_a2a_sdks() -> None:
    assert set(jsonrpc_dispatcher.JsonRpcDispatcher.METHOD_TO_MODEL) == V10_METHODS
    assert set(jsonrpc_dispatcher.JSONRPC03Adapter.METHOD_TO_MODEL) == V03_METHODS
    assert ANONYMOUS_METHODS <= V10_METHODS | V03_METHODS
