"""Which failed starts leave no task at the partner (``agenthub.failed_start.not_taken``):
those the leader records ``failed``; the others may have reached the partner, which then
says where its task is."""

from __future__ import annotations

import httpx
import pytest

from agenthub.errors import AnswerMismatchError, CallFailed, HubRequestError
from agenthub.failed_start import not_taken


@pytest.mark.parametrize(
    ("error", "taken"),
    [
        (CallFailed("JSON-RPC error -32700: parse error", code=-32700), False),
        (CallFailed("refused the call: HTTP 401", status=401), False),
        (CallFailed("refused the call: HTTP 404", status=404), False),
        (CallFailed("The answer is not a JSON-RPC response."), False),
        (AnswerMismatchError("The answer is Server's"), False),
        (httpx.ConnectError("connection refused"), False),
        (HubRequestError(404, {"detail": "No agent."}), False),
        # the partner's server failed, or the answer never came: it may hold the task
        (CallFailed("refused the call: HTTP 500", status=500), True),
        (CallFailed("refused the stream: HTTP 502", status=502), True),
        (httpx.ReadTimeout("no answer"), True),
        (httpx.RemoteProtocolError("connection closed"), True),
    ],
)
def test_a_start_is_recorded_failed_only_when_the_partner_cannot_hold_it(
    error: BaseException, taken: bool
) -> None:
    assert not_taken(error) is not taken
