"""A leader records its partner's answers for it (``POST …/answers``); and records that
arrive in reverse order converge on the same task."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import func, select

from agenthub.signing import sign_answer
from app.core.models import StoredMessage
from app.tasks.models import Task
from tests.api.test_sessions import open_session
from tests.api.test_tasks import Pair, pair, started
from tests.support.groups import count
from tests.support.hub import MakeAgent, problem
from tests.support.messages import command, result
from tests.support.parts import parts


def rpc_answer(partner_id: str, task_id: str, state: str, **extra: Any) -> bytes:
    body = result(partner_id, task_id, state, **extra)
    return orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": body})


async def relay(p: Pair, answer: bytes, **extra: Any) -> Any:
    body = {"partnerId": p.pid, "answer": answer.decode(), **extra}
    return await p.leader.request("POST", f"/v1/sessions/{p.session_id}/answers", json=body)


async def test_an_unsigned_answer_is_the_leaders_report_and_moves_the_task(
    make_agent: MakeAgent,
) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    # acps-sdk answers in the name "server", with its whole path in statusHistory
    first = result("server", task_id, "accepted")
    then = result("server", task_id, "working")
    answer = rpc_answer(
        "server",
        task_id,
        "awaiting-completion",
        statusHistory=[first["status"], then["status"]],
    )
    stored = await relay(p, answer)
    assert stored.status_code == 201, stored.text
    body = stored.json()
    assert (body["senderId"], body["relayedBy"], body["verified"]) == (p.pid, p.lid, False)
    assert body["id"].startswith("relayed:")
    task = await p.task(task_id)
    assert [s["state"] for s in task["statusHistory"]] == [
        "accepted",
        "working",
        "awaiting-completion",
    ]
    assert (await relay(p, answer)).status_code == 200  # the same answer again
    # the partner's own record of a move already relayed is the same move
    own = result(p.pid, task_id, "working", status=then["status"])
    assert (await p.partner.request("POST", p.path, json=own)).status_code == 201
    assert len((await p.task(task_id))["statusHistory"]) == 3


async def test_a_signed_answer_is_the_partners_own_record(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    answer = rpc_answer(p.pid, task_id, "accepted")
    signature = sign_answer(
        p.partner.key, callee_id=p.pid, caller_id=p.lid, nonce="n-1", signed_bytes=answer
    )
    stored = await relay(p, answer, signature=signature, nonce="n-1")
    assert stored.status_code == 201, stored.text
    assert stored.json()["verified"] is True and not stored.json()["id"].startswith("relayed:")
    # the partner's own post of that answer is the stored one
    own = orjson.loads(answer)["result"]
    again = await p.partner.request("POST", p.path, json=own)
    assert again.status_code == 200 and again.json()["relayedBy"] == p.lid
    # a signature over other bytes, or another nonce, verifies nothing: unverified
    other = rpc_answer(p.pid, task_id, "working")
    tampered = await relay(p, other, signature=signature, nonce="n-1")
    assert tampered.status_code == 201 and tampered.json()["verified"] is False


async def test_only_the_tasks_leader_relays_and_only_task_results(make_agent: MakeAgent) -> None:
    p = await pair(make_agent)
    task_id = await started(p)
    third = await make_agent("third")
    url = f"/v1/sessions/{p.session_id}/answers"
    not_a_result = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": {"type": "message"}})
    problem(await relay(p, not_a_result), 422)
    problem(await relay(p, b"not json"), 422)
    forged = {"partnerId": p.pid, "answer": rpc_answer(p.pid, task_id, "accepted").decode()}
    problem(await third.request("POST", url, json=forged), 404)  # not in the session
    # a receiver that does not lead the task may not report for its partner either
    crowd = await open_session(p.leader, p.partner, third)
    start = command(p.lid, "start", task_id="t-c", partnerId=p.pid)
    crowd_url = f"/v1/sessions/{crowd['id']}"
    assert (await p.leader.request("POST", f"{crowd_url}/messages", json=start)).status_code == 201
    for_c = {"partnerId": p.pid, "answer": rpc_answer(p.pid, "t-c", "accepted").decode()}
    problem(await third.request("POST", f"{crowd_url}/answers", json=for_c), 422)
    # the partner itself may not relay its own answers
    problem(await p.partner.request("POST", url, json={**forged, "partnerId": p.pid}), 422)
    assert (await p.task(task_id))["state"] == "submitted"


async def test_records_in_reverse_order_give_the_same_task(make_agent: MakeAgent) -> None:
    forward, backward = await pair(make_agent), await pair(make_agent)
    tasks = []
    for p, reverse in ((forward, False), (backward, True)):
        records = [
            (p.leader, command(p.lid, "start", task_id="t", partnerId=p.pid)),
            (p.partner, result(p.pid, "t", "accepted")),
            (p.partner, result(p.pid, "t", "working")),
            (p.partner, result(p.pid, "t", "awaiting-completion")),
            (p.leader, command(p.lid, "complete", task_id="t")),
        ]
        codes = []
        for kit, body in reversed(records) if reverse else records:
            codes.append((await kit.request("POST", p.path, json=body)).status_code)
        assert set(codes) <= {201, 202}, codes
        task = await p.task("t")
        tasks.append((task["state"], [s["state"] for s in task["statusHistory"]]))
    assert (
        tasks[0]
        == tasks[1]
        == (
            "completed",
            ["accepted", "working", "awaiting-completion", "completed"],
        )
    )


async def test_a_relayed_answer_cannot_make_a_group_only_receiver_a_p2p_partner(
    make_agent: MakeAgent, hub: Any
) -> None:
    """POST …/messages refuses a group-only receiver's report of a new task
    (not-a-p2p-receiver); the relayed-answer path refuses it too."""
    leader, g = await make_agent("leader"), await make_agent("g")
    body = {"receivers": [{"agentId": g.agent_id, "mode": "group"}]}
    sid = (await leader.request("POST", "/v1/sessions", json=body)).json()["id"]
    answer = rpc_answer(str(g.agent_id), "t-9", "accepted")
    relay_body = {"partnerId": g.agent_id, "answer": answer.decode()}
    relayed = await leader.request("POST", f"/v1/sessions/{sid}/answers", json=relay_body)
    assert problem(relayed, 422)["type"].endswith("/not-a-p2p-receiver")
    assert await count(hub, Task) == 0


async def test_a_signed_relay_of_a_reused_id_is_the_partners_own_record(
    make_agent: MakeAgent,
) -> None:
    """acps-sdk answers every command of a task under one id: the partner's own record of
    one such answer and its leader's signed relay of the same answer are one record."""
    p = await pair(make_agent)
    task_id = await started(p)
    first = result(p.pid, task_id, "accepted")
    r = await p.partner.request("POST", p.path, json=first)
    assert r.status_code == 201, r.text
    # same id, other content (acps-sdk style): a variant
    second = result(p.pid, task_id, "working", id=first["id"])
    r = await p.partner.request("POST", p.path, json=second)
    assert r.status_code == 201, r.text
    # the leader relays the partner's signed answer, the same bytes as `second`
    answer = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": second})
    sig = sign_answer(
        p.partner.key, callee_id=p.pid, caller_id=p.lid, nonce="n-2", signed_bytes=answer
    )
    stored = await relay(p, answer, signature=sig, nonce="n-2")
    # one record, as for a first use of the id (test_a_signed_answer_is_the_partners_own_record)
    assert stored.status_code == 200, stored.text
    items = (await p.leader.request("GET", p.path)).json()["items"]
    assert [m["status"]["state"] for m in items if m["id"] == first["id"]] == [
        "accepted",
        "working",
    ]


async def test_every_id_a_peer_may_send_is_stored_under_each_form_the_hub_derives(
    make_agent: MakeAgent, hub: Any
) -> None:
    """An id is up to 200 characters (``Identifier``), and so is the column a record's id is
    stored in: an unsigned relay's ``relayed:`` id and a variant's ``~`` id of any legal id
    fit it, its stored body reads back, and it moves its task (a relay of an id too long
    for the prefix keeps the partner's own id in its body)."""
    p = await pair(make_agent)
    # 192: the relay's prefix just fits; 193 and 200 (the most a peer may send) it does not;
    # 183 and 184: the same for a variant's suffix
    for n in (183, 184, 192, 193, 200):
        task_id = await started(p, f"t-{n}")
        own_id = f"{n}-".ljust(n, "x")
        accepted = rpc_answer(p.pid, task_id, "accepted", id=own_id)
        stored = await relay(p, accepted)
        assert stored.status_code == 201, stored.text
        body = stored.json()
        assert (body["senderId"], body["relayedBy"], body["verified"]) == (p.pid, p.lid, False)
        assert body["id"] == (f"relayed:{own_id}" if n <= 192 else own_id)
        again = await relay(p, accepted)
        assert (again.status_code, again.json()) == (200, body)
        # acps-sdk's next answer under the same id: a record of its own (a variant)
        mine = result(p.pid, task_id, "working", id=own_id)
        working = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": mine})
        assert (await relay(p, working)).status_code == 201
        assert (await relay(p, working)).status_code == 200
        # the partner's own records under that id (the same move), and another one's
        assert (await p.partner.request("POST", p.path, json=mine)).status_code == 201
        waiting = result(p.pid, task_id, "awaiting-completion", id=own_id)
        assert (await p.partner.request("POST", p.path, json=waiting)).status_code == 201
        assert (await p.partner.request("POST", p.path, json=waiting)).status_code == 200
        assert (await p.lead("complete", task_id)).status_code == 201
        task = await p.task(task_id)
        assert [s["state"] for s in task["statusHistory"]] == [
            "accepted",
            "working",
            "awaiting-completion",
            "completed",
        ]
    listed = await p.leader.request("GET", p.path, params={"limit": 100})
    assert listed.status_code == 200, listed.text
    assert len(listed.json()["items"]) == 5 * 6
    async with parts(hub).session_factory() as db:
        longest = await db.scalar(select(func.max(func.length(StoredMessage.message_id))))
    assert longest is not None and longest <= 200


async def test_a_result_that_waits_keeps_the_moves_its_history_shows(
    make_agent: MakeAgent,
) -> None:
    """A result whose own move the task cannot take yet still brings in the moves of its
    ``statusHistory`` that the task can (the fold's catch-up), whichever path records it
    (the writer's in memory, the relayed answer's, a fold again of everything) and in
    whichever order its records arrive."""
    accepted = {"state": "accepted", "stateChangedAt": "2026-01-01T00:00:01Z"}
    working = {"state": "working", "stateChangedAt": "2026-01-01T00:00:02Z"}
    asked = {"state": "awaiting-input", "stateChangedAt": "2026-01-01T00:00:03Z"}
    done = {"state": "failed", "stateChangedAt": "2026-01-01T00:00:04Z"}
    tasks, statuses = [], []
    for how in ("own", "relayed", "reversed"):
        p = await pair(make_agent)
        task_id = "t"  # made by the partner's first report
        first = [
            result(p.pid, task_id, "accepted", status=accepted, sentAt=accepted["stateChangedAt"]),
            result(p.pid, task_id, "working", status=working, sentAt=working["stateChangedAt"]),
        ]
        # awaiting-input to failed is no move of the partner's: the result waits
        last = result(
            p.pid,
            task_id,
            "failed",
            status=done,
            statusHistory=[accepted, working, asked, done],
            sentAt=done["stateChangedAt"],
        )
        codes = []
        for body in [*first, last] if how != "reversed" else [last, *reversed(first)]:
            if how == "relayed" and body is last:
                answer = orjson.dumps({"jsonrpc": "2.0", "id": "1", "result": body})
                codes.append((await relay(p, answer)).status_code)
            else:
                codes.append((await p.partner.request("POST", p.path, json=body)).status_code)
        statuses.append(codes)
        task = await p.task(task_id)
        tasks.append((task["state"], [s["state"] for s in task["statusHistory"]]))
    assert statuses[:2] == [[201, 201, 202]] * 2
    assert tasks == [("awaiting-input", ["accepted", "working", "awaiting-input"])] * 3
