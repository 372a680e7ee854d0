"""Use cases of sessions: the leader opens, changes and closes them; participants read them.

A *bridge* session (``bridge`` set) records a task its leader serves for a caller of another
protocol (A2A), which records nothing itself: the leader is the session's only receiver too
(mode p2p, on its own participant row), and the leader and partner of its tasks.

    InvalidInput (422)
    ├── BridgeReceivers     code "bridge-receivers"
    └── UnknownBridgeCaller code "unknown-bridge-caller"
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import and_, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.sessions import (
    BridgeCaller,
    ReceiverSpec,
    SessionBridge,
    SessionBridgeView,
    SessionCreate,
    SessionPage,
    SessionReceiver,
    SessionSender,
    SessionUpdate,
    SessionView,
)
from app.agents.models import Agent
from app.agents.service import require_registered
from app.auth.principal import Principal
from app.core.unit_of_work import tell_operator
from app.errors import EmptyPatch
from app.models.types import utcnow
from app.oauth.models import OAuthClient
from app.pages import cursor_time, decode_cursor, encode_cursor
from app.sessions.callers import bridge_callers
from app.sessions.errors import (
    BadReceivers,
    BridgeReceivers,
    NotSessionLeader,
    SessionClosed,
    SessionIdTaken,
    SessionNotFound,
    UnknownBridgeCaller,
)
from app.sessions.models import Session, SessionParticipant
from app.sessions.modes import GROUP, HYBRID, P2P
from app.sessions.release import release_session

LEADER = "leader"
RECEIVER = "receiver"


def new_session_id() -> str:
    return f"ses-{uuid.uuid4().hex}"


async def _check_bridge(
    db: AsyncSession, leader_id: str, bridge: SessionBridge, receivers: list[ReceiverSpec]
) -> None:
    if [(r.agent_id, r.mode) for r in receivers] != [(leader_id, P2P)]:
        raise BridgeReceivers(
            "A bridge session's only receiver is its leader itself, in mode p2p: the leader "
            "records the caller's side of the task as well as its own."
        )
    if bridge.caller_id is None:
        return
    if bridge.caller_kind == "application":  # revoked since is fine: it called before
        if await db.get(OAuthClient, bridge.caller_id) is None:
            raise UnknownBridgeCaller(
                f"No application {bridge.caller_id!r} registered by the operator as the "
                "bridge's caller (callerKind application)."
            )
        return
    await require_registered(db, [bridge.caller_id], purpose=" as the bridge's caller")


async def _check_receivers(db: AsyncSession, leader_id: str, receivers: list[ReceiverSpec]) -> None:
    declared = [(r.agent_id, r.mode) for r in receivers]
    if len(declared) != len(set(declared)):
        raise BadReceivers("Each receiver may appear once per mode (p2p, group, or both).")
    ids = list(dict.fromkeys(r.agent_id for r in receivers))
    if leader_id in ids:
        raise BadReceivers("The leader is the session's sender, not one of its receivers.")
    await require_registered(db, ids, purpose=" to receive this session")


def _participants(session_id: str, receivers: list[ReceiverSpec]) -> list[SessionParticipant]:
    """One row a receiver: one declared in both modes is ``hybrid``, with each mode's params."""
    rows: dict[str, SessionParticipant] = {}
    for r in receivers:
        row = rows.get(r.agent_id)
        if row is None:
            rows[r.agent_id] = SessionParticipant(
                session_id=session_id,
                agent_id=r.agent_id,
                role=RECEIVER,
                mode=r.mode,
                params=r.params,
                position=len(rows) + 1,
            )
        elif r.mode == GROUP:  # declared p2p before
            row.mode, row.group_params = HYBRID, r.params
        else:  # declared group before
            row.mode, row.params, row.group_params = HYBRID, r.params, row.params
    return list(rows.values())


def _receivers(participant: SessionParticipant, address: str | None) -> list[SessionReceiver]:
    """A receiver as declared: a hybrid one twice, point to point first."""
    modes = [P2P, GROUP] if participant.mode == HYBRID else [participant.mode or P2P]
    return [
        SessionReceiver(
            agent_id=participant.agent_id,
            address=address,
            mode=mode,
            params=participant.group_params
            if participant.mode == HYBRID and mode == GROUP
            else participant.params,
        )
        for mode in modes
    ]


async def create_session(db: AsyncSession, *, leader: Agent, body: SessionCreate) -> SessionView:
    if body.bridge is not None:
        await _check_bridge(db, leader.id, body.bridge, body.receivers)
    else:
        await _check_receivers(db, leader.id, body.receivers)
    session_id = body.id or new_session_id()
    if await db.get(Session, session_id) is not None:
        raise SessionIdTaken(f"Session id {session_id!r} is taken.")
    now = utcnow()
    db.add(
        Session(
            id=session_id,
            leader_id=leader.id,
            title=body.title,
            goal=body.goal,
            bridge=body.bridge.to_wire() if body.bridge else None,
            created_at=now,
            updated_at=now,
        )
    )
    await db.flush()
    if body.bridge is not None:  # one row: the leader, its own p2p receiver
        receiver = body.receivers[0]
        db.add(
            SessionParticipant(
                session_id=session_id,
                agent_id=leader.id,
                role=LEADER,
                mode=P2P,
                params=receiver.params,
                position=0,
            )
        )
    else:
        db.add(
            SessionParticipant(session_id=session_id, agent_id=leader.id, role=LEADER, position=0)
        )
        db.add_all(_participants(session_id, body.receivers))
    tell_operator(db, "session", {"sessionId": session_id, "state": "open"})
    try:
        await db.flush()
    except IntegrityError as exc:
        raise SessionIdTaken(f"Session id {session_id!r} is taken.") from exc
    return await session_view(db, session_id)


async def participant_session(db: AsyncSession, session_id: str, agent_id: str) -> Session:
    """The session if ``agent_id`` takes part in it; 404 otherwise (others may not see it)."""
    row = (
        await db.exec(
            select(Session)
            .join(SessionParticipant, col(SessionParticipant.session_id) == col(Session.id))
            .where(col(Session.id) == session_id, col(SessionParticipant.agent_id) == agent_id)
        )
    ).first()
    if row is None:
        raise SessionNotFound(f"No session {session_id!r}.")
    return row


async def _participants_of(
    db: AsyncSession, session_ids: Sequence[str]
) -> dict[str, list[tuple[SessionParticipant, str | None]]]:
    """Each session's participants with their addresses, in one query for all of them."""
    rows = (
        await db.exec(
            select(SessionParticipant, Agent.endpoint_url)
            .join(Agent, col(Agent.id) == col(SessionParticipant.agent_id))
            .where(col(SessionParticipant.session_id).in_(session_ids))
            .order_by(col(SessionParticipant.position))
        )
    ).all()
    grouped: dict[str, list[tuple[SessionParticipant, str | None]]] = {i: [] for i in session_ids}
    for participant, address in rows:
        grouped[participant.session_id].append((participant, address))
    return grouped


async def session_views(db: AsyncSession, sessions: Sequence[Session]) -> list[SessionView]:
    """The views of ``sessions``, with one query for all their participants."""
    participants = await _participants_of(db, [s.id for s in sessions])
    callers = await bridge_callers(db, {s.id: s.bridge for s in sessions})
    return [_view(s, participants[s.id], callers.get(s.id)) for s in sessions]


async def readable_session(db: AsyncSession, session_id: str, principal: Principal) -> Session:
    """The session, for a participant or the operator (who reads every session); 404 else."""
    if principal.agent is not None:
        return await participant_session(db, session_id, principal.agent.id)
    session = await db.get(Session, session_id)
    if session is None:
        raise SessionNotFound(f"No session {session_id!r}.")
    return session


async def session_view(db: AsyncSession, session_id: str) -> SessionView:
    session = await db.get(Session, session_id)
    assert session is not None
    return (await session_views(db, [session]))[0]


def _view(
    session: Session,
    rows: Sequence[tuple[SessionParticipant, str | None]],
    caller: BridgeCaller | None,
) -> SessionView:
    sender = SessionSender(agent_id=session.leader_id)
    receivers = []
    for participant, address in rows:
        if participant.role == LEADER:
            sender = SessionSender(agent_id=participant.agent_id, address=address)
        if participant.role != LEADER or session.bridge is not None:
            receivers.extend(_receivers(participant, address))
    return SessionView(
        id=session.id,
        sender=sender,
        receivers=receivers,
        state="closed" if session.state == "closed" else "open",
        title=session.title,
        goal=session.goal,
        bridge=SessionBridgeView.model_validate(
            {**session.bridge, "callerKind": caller and caller.kind, "caller": caller}
        )
        if session.bridge
        else None,
        created_at=session.created_at,
        updated_at=session.updated_at,
        closed_at=session.closed_at,
    )


async def update_session(
    db: AsyncSession, *, session_id: str, caller: Agent, body: SessionUpdate
) -> SessionView:
    session = await participant_session(db, session_id, caller.id)
    if session.leader_id != caller.id:
        raise NotSessionLeader("Only the session's leader may change it.")
    fields = body.model_fields_set
    if not fields:
        raise EmptyPatch("The patch changes nothing.")
    if session.state == "closed" and (fields - {"state"} or body.state != "closed"):
        raise SessionClosed("The session is closed; a closed session stays closed.")
    now = utcnow()
    if "title" in fields:
        session.title = body.title
    if "goal" in fields:
        session.goal = body.goal
    if "receivers" in fields:
        receivers = body.receivers or []
        if session.bridge is not None:
            raise BridgeReceivers("A bridge session's receivers cannot change.")
        await _check_receivers(db, caller.id, receivers)
        await db.exec(
            delete(SessionParticipant).where(
                col(SessionParticipant.session_id) == session_id,
                col(SessionParticipant.role) == RECEIVER,
            )
        )
        db.add_all(_participants(session_id, receivers))
    if body.state == "closed" and session.state != "closed":
        session.state = "closed"
        session.closed_at = now
        await release_session(db, session, by=caller.id, at=now)
    session.updated_at = now
    db.add(session)
    await db.flush()
    return await session_view(db, session_id)


async def list_sessions(
    db: AsyncSession, *, agent_id: str, state: str | None, limit: int, cursor: str | None
) -> SessionPage:
    stmt = (
        select(Session)
        .join(SessionParticipant, col(SessionParticipant.session_id) == col(Session.id))
        .where(col(SessionParticipant.agent_id) == agent_id)
    )
    if state:
        stmt = stmt.where(col(Session.state) == state)
    if cursor:
        created, last_id = decode_cursor(cursor, types=(str, str))
        when = cursor_time(created)
        stmt = stmt.where(
            or_(
                col(Session.created_at) < when,
                and_(col(Session.created_at) == when, col(Session.id) < last_id),
            )
        )
    stmt = stmt.order_by(col(Session.created_at).desc(), col(Session.id).desc()).limit(limit + 1)
    sessions = list((await db.exec(stmt)).all())
    page = sessions[:limit]
    items = await session_views(db, page)
    next_cursor = None
    if len(sessions) > limit:
        last = page[-1]
        next_cursor = encode_cursor([last.created_at.isoformat(), last.id])
    return SessionPage(items=items, next_cursor=next_cursor)


async def end_places_of(db: AsyncSession, agent_id: str) -> None:
    """A deregistered agent's sessions: those it leads close (and are released), its places
    in others end."""
    now = utcnow()
    led = select(Session).where(col(Session.leader_id) == agent_id, col(Session.state) != "closed")
    for session in (await db.exec(led)).all():
        await release_session(db, session, by=agent_id, at=now)
    await db.exec(
        update(Session)
        .where(col(Session.leader_id) == agent_id, col(Session.state) != "closed")
        .values(state="closed", closed_at=now, updated_at=now)
    )
    await db.exec(
        delete(SessionParticipant).where(
            col(SessionParticipant.agent_id) == agent_id, col(SessionParticipant.role) != "leader"
        )
    )
