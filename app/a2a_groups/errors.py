"""Errors of a group's A2A face (each a JSON-RPC ``InvalidParams`` on the wire)."""

from __future__ import annotations

from app.errors import InvalidInput


class NotAGroupPost(InvalidInput):
    """An A2A message that makes no group post (its id, mentions or next speakers)."""

    code = "not-a-group-post"


class BadPage(InvalidInput):
    """``ListGroupMessages`` asked for a page that cannot be (``after``, ``limit``)."""

    code = "bad-page"
