"""A leader records its partner's answers for it: a partner that records nothing at the hub
(an acps-sdk server) still gets its task's state recorded.

The leader sends the answer's HTTP body exactly as it came, with the partner's
``X-Agent-Signature`` if it had one. A signature that verifies against the partner's
registered key (issued by the partner, for this leader, over these bytes) makes the record
the partner's own: stored under the partner's id, as if it had posted it, so its own record
of the same answer is the same message. Without one, the record is the leader's report of
the partner's state: stored under the leader's name (its ids cannot take the partner's),
marked ``verified: false``, and it moves the task as the partner's report would.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from pydantic import ValidationError
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.errors import AnswerSignatureError
from agenthub.protocol.messages import TaskResult, parse_message
from agenthub.protocol.sessions import RelayedAnswer
from agenthub.signing import check_answer
from app.agents.models import Agent
from app.records.errors import AnswerNotYours, BadAnswer, OwnAnswer
from app.records.messages import (
    Participation,
    after_task_move,
    as_received,
    as_record,
    check_open,
    insert_message,
    move_status,
    replayed_session_message,
)
from app.records.stored import MAX_RECORD_ID, find_record
from app.sessions.models import SessionParticipant
from app.sessions.modes import check_p2p_report
from app.tasks.errors import PartnerNotHere
from app.tasks.service import Outcome, apply_task_message

RELAYED = "relayed:"  # an unsigned relay's id: its leader's record, not the partner's own


def _result_of(answer: bytes) -> TaskResult:
    try:
        rpc = orjson.loads(answer)
    except orjson.JSONDecodeError as exc:
        raise BadAnswer("The answer is not JSON.") from exc
    result = rpc.get("result") if isinstance(rpc, dict) else None
    if not isinstance(result, dict) or result.get("type") != "task-result":
        raise BadAnswer("The answer is not a JSON-RPC response whose result is a TaskResult.")
    try:
        message = parse_message(result)
    except ValidationError as exc:
        raise BadAnswer(f"The answer's TaskResult does not fit: {exc.errors()[0]['msg']}.") from exc
    assert isinstance(message, TaskResult)
    return message


def _signed_by(partner: Agent, body: RelayedAnswer, caller_id: str, answer: bytes) -> bool:
    """Whether the answer's signature is the partner's, for this caller, over these bytes
    (the check the kit's leader makes, ``agenthub.signing.check_answer``)."""
    try:
        check_answer(
            body.signature,
            partner.public_jwk,
            callee_id=partner.id,
            caller_id=caller_id,
            nonce=body.nonce,
            signed_bytes=answer,
        )
    except AnswerSignatureError:
        return False
    return True


def relayed_ids(message_id: str) -> tuple[str, str]:
    """An unsigned relay's id in its stored body, and the id it is kept under among its
    leader's records: ``relayed:`` and the partner's id, both; or, for an id too long to
    take the prefix (a partner may send up to ``MAX_RECORD_ID`` characters), the partner's
    own id in the body (``relayedBy`` and ``verified: false`` still say what it is) and a
    digest of it as the record's."""
    prefixed = f"{RELAYED}{message_id}"
    if len(prefixed) <= MAX_RECORD_ID:
        return prefixed, prefixed
    return message_id, f"{RELAYED}~{hashlib.sha256(message_id.encode()).hexdigest()}"


async def write_answer(
    db: AsyncSession, *, caller_id: str, body: RelayedAnswer, at: Participation
) -> tuple[dict[str, Any], int]:
    """Store the partner's answer as a record of its task, uncommitted (see the module's
    docstring): the stored body and its status (as ``messages.write_session_message``).
    ``at``: the caller's place in the session, read in this transaction."""
    session_id = at.session_id
    partner = await db.get(Agent, body.partner_id)
    taking_part = await db.get(SessionParticipant, (session_id, body.partner_id))
    if partner is None or partner.deleted_at is not None or taking_part is None:
        raise PartnerNotHere(f"The partner {body.partner_id!r} does not take part here.")
    if partner.id == caller_id:
        raise OwnAnswer("An agent records its own answers with POST …/messages.")
    answer = body.answer.encode()
    result = _result_of(answer)
    if result.session_id not in (None, session_id) or result.task_id is None:
        raise BadAnswer("The answer is for another session, or names no task.")
    verified = _signed_by(partner, body, caller_id, answer)
    if verified and result.sender_id != partner.id:
        raise BadAnswer("The signed answer's senderId is not the partner.")
    # the partner's report, in its name (an unsigned one says which partner the leader meant)
    message = as_received(result.model_copy(update={"sender_id": partner.id}))
    marked: dict[str, Any] = {"relayed_by": caller_id, "verified": verified}
    kept_as = None
    if not verified:
        marked["id"], kept_as = relayed_ids(message.id)
    stored_as = message.model_copy(update=marked)
    row_sender = partner.id if verified else caller_id
    existing, record_id = await find_record(
        db, row_sender, stored_as, session_id=session_id, record_id=kept_as
    )
    if existing is not None:
        return replayed_session_message(existing, session_id), 200
    check_open(message, at)
    await check_p2p_report(db, message, session_id, taking_part.mode)
    move = await apply_task_message(
        db,
        as_record(stored_as, record_id),
        session_id=session_id,
        group_id=None,
        members=set(),
        session_leader_id=at.leader_id,
    )
    if (move.leader_id, move.partner_id) != (caller_id, partner.id):
        raise AnswerNotYours(
            f"Task {message.task_id!r} here is not one the caller leads with {partner.id!r}."
        )
    stored = await insert_message(
        db,
        stored_as,
        session_id=session_id,
        task_id=move.task_id,
        sender_id=row_sender,
        record_id=record_id,
        waiting=move.outcome is Outcome.NOT_YET,
    )
    await after_task_move(db, message, move, session_id)
    return stored, move_status(move.outcome)
