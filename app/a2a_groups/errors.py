"""Errors of a group's A2A face: the request is no JSON-RPC at all (a problem), or its
params make no post or page (a JSON-RPC ``InvalidParams`` on the wire)."""

from __future__ import annotations

from app.errors import BadRequest, InvalidInput


class NotJsonRpc(BadRequest):
    """A body that is no JSON-RPC 2.0 request (not JSON, a batch, no ``method``…): a
    problem, as for any request the operation does not document."""

    code = "not-json-rpc"


class NotAGroupPost(InvalidInput):
    """An A2A message that makes no group post (its id, mentions or next speakers)."""

    code = "not-a-group-post"


class BadPage(InvalidInput):
    """``ListGroupMessages`` asked for a page that cannot be (``after``, ``limit``)."""

    code = "bad-page"
