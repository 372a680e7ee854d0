"""GB/Z Data items (GB/Z 185.6 Table 2) reaching a kit partner over a real call: taken as
the AIP items they map to, given back with ``to_gbz``; a bad one is -32602 (Invalid params)
before any handler runs. The leader's and the partner's records at the live hub read as AIP."""

from __future__ import annotations

from typing import Any

import pytest
from acps_sdk.aip import aip_base_model as acps
from pydantic import TypeAdapter

from agenthub import Agent, CallFailed, TaskContext, TaskHandler
from agenthub.protocol.data import DataItem, to_gbz
from tests.support.kit import MakeLiveAgent
from tests.support.messages import now

ASKED: list[dict[str, Any]] = [
    {"type": "application/json", "metadata": {"schema": "calc/v1"}, "payload": {"n": 9}},
    {"type": "text/plain", "metadata": {"lang": "en"}, "payload": "sqrt(n!)"},
]
ANSWER = {"type": "application/json", "metadata": {"unit": "1"}, "payload": [602.99]}
items = TypeAdapter(list[DataItem])


class GbzHandler(TaskHandler):
    """Answers with a GB/Z item; keeps the items it was given, as GB/Z items."""

    def __init__(self) -> None:
        self.seen: list[list[dict[str, Any]]] = []

    async def on_start(self, task: TaskContext) -> None:
        given = items.validate_python(task.data_items)
        self.seen.append([to_gbz(i).to_wire() for i in given])
        await task.await_completion([{"id": "answer", "dataItems": [ANSWER]}])


def start(leader: Agent, partner: Agent, session_id: str, data_items: Any) -> dict[str, Any]:
    return {
        "type": "task-command",
        "id": f"cmd-{len(str(data_items))}-{now()}",
        "sentAt": now(),
        "senderRole": "leader",
        "senderId": leader.agent_id,
        "sessionId": session_id,
        "command": "start",
        "taskId": "t-gbz",
        "partnerId": partner.agent_id,
        "dataItems": data_items,
    }


async def test_gbz_data_item_reaches_a_kit_partner(make_live_agent: MakeLiveAgent) -> None:
    handler = GbzHandler()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("gbz", handler)
    session = await leader.leader.open_session([partner.agent_id])
    wire = start(leader, partner, session.id, ASKED)  # GB/Z items on the wire, as a GB/Z peer
    answer = await leader.leader.call(partner.agent_id, "rpc", {"command": wire})
    assert handler.seen == [ASKED]
    product = acps.TaskResult.model_validate(answer)  # an AIP-only peer reads the answer
    assert product.status.state == acps.TaskState.AwaitingCompletion
    answered = items.validate_python(answer["products"][0]["dataItems"])
    assert [to_gbz(i).to_wire() for i in answered] == [ANSWER]
    assert partner.recorder is not None and await partner.recorder.flush(10)
    response = await partner.hub.request("GET", f"/v1/sessions/{session.id}/messages")
    stored = response.json()["items"]
    assert stored and all(acps.TaskResult.model_validate(m) for m in stored)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "image/png", "payload": "aGVsbG8="},
        {"type": "picture", "metadata": {}, "payload": "x"},
        {"type": "text/plain", "metadata": {}, "payload": None},
    ],
)
async def test_bad_gbz_data_item_is_invalid_params_at_a_kit_partner(
    make_live_agent: MakeLiveAgent, bad: dict[str, Any]
) -> None:
    handler = GbzHandler()
    leader = await make_live_agent("leader")
    partner = await make_live_agent("gbz", handler)
    session = await leader.leader.open_session([partner.agent_id])
    wire = start(leader, partner, session.id, [bad])
    with pytest.raises(CallFailed) as refused:
        await leader.leader.call(partner.agent_id, "rpc", {"command": wire})
    assert refused.value.code == -32602
    assert [e["loc"][:3] for e in refused.value.data] == [["dataItems", "0", "gbz"]]
    assert handler.seen == []
    task = await partner.hub.request("GET", "/v1/tasks/t-gbz")
    assert task.status_code == 404
