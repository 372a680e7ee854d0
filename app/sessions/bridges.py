"""Bridge sessions opened by the record itself: a batch of messages whose ``bridges`` name
sessions they are of (``POST /v1/sessions/messages:batch``) opens them, in the writer's
transaction, when they are not there yet. A bridge's leader opens a session for every
context its callers begin; a request of its own, with its own transaction, for each cost
more than the records in it.

What it opens is what ``POST /v1/sessions`` opens for the same bridge: the session, its
leader its only participant (its own receiver, mode p2p), the operator told. One there
already is kept, whoever opened it (the records then take their place in it, or are
refused, as any record is). Read and written with one statement each for the whole batch.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, insert, literal_column, select, union_all
from sqlmodel import col

from agenthub.protocol.sessions import SessionBridge
from app.agents.errors import UnregisteredAgent
from app.agents.models import Agent
from app.auth.principal import check_token_key
from app.core.unit_of_work import UnitOfWork
from app.errors import HubError
from app.models.types import utcnow
from app.oauth.models import OAuthClient
from app.prepared import Prepared, rows, run_many
from app.sessions.errors import UnknownBridgeCaller
from app.sessions.models import Session, SessionParticipant
from app.sessions.modes import P2P


@dataclass(frozen=True, slots=True)
class BridgeOpen:
    """A bridge session to open unless it is there: its id, its leader (the caller of the
    batch), its bridge."""

    session_id: str
    leader_id: str
    key_thumbprint: str | None  # the key the leader's token is bound to (its cnf.jkt)
    bridge: SessionBridge


async def open_bridges(
    work: UnitOfWork, opens: list[BridgeOpen]
) -> dict[tuple[str, str], HubError]:
    """Open the sessions of ``opens`` not there yet, in ``work``'s transaction (of two
    opens of one id, the first); each one refused (its leader no longer registered with
    the key its token is bound to, its caller unknown), with why, by (id, leader)."""
    wanted: dict[str, BridgeOpen] = {}
    for o in opens:
        wanted.setdefault(o.session_id, o)
    if not wanted:
        return {}
    agents = {o.bridge.caller_id for o in wanted.values() if _caller_kind(o) == "agent"}
    apps = {o.bridge.caller_id for o in wanted.values() if _caller_kind(o) == "application"}
    params = {
        "sessions": list(wanted),
        "agents": list(agents),
        "apps": list(apps),
        "leaders": list({o.leader_id for o in wanted.values()}),
    }
    found, keys = set(), {}
    for kind, value, key in await rows(work.conn, _THERE, params):
        if kind == "leader":
            keys[value] = key
        else:
            found.add((kind, value))
    refused: dict[tuple[str, str], HubError] = {}
    now = utcnow()
    sessions, places = [], []
    for o in wanted.values():
        try:  # the leader as ``POST /v1/sessions`` takes it (``CurrentAgent``)
            check_token_key(o.key_thumbprint, keys.get(o.leader_id))
        except HubError as stale:
            refused[(o.session_id, o.leader_id)] = stale
            continue
        if ("session", o.session_id) in found:
            continue
        why = _unknown_caller(o, found)
        if why is not None:
            refused[(o.session_id, o.leader_id)] = why
            continue
        sessions.append(
            {
                "id": o.session_id,
                "leader_id": o.leader_id,
                "title": None,
                "goal": None,
                "state": "open",
                "created_at": now,
                "updated_at": now,
                "closed_at": None,
                "bridge": o.bridge.to_wire(),
            }
        )
        places.append(
            {
                "session_id": o.session_id,
                "agent_id": o.leader_id,
                "role": "leader",
                "mode": P2P,
                "params": None,
                "group_params": None,
                "position": 0,
            }
        )
        work.outbox.tell_operator("session", {"sessionId": o.session_id, "state": "open"})
    if sessions:
        await run_many(work.conn, _INSERT_SESSION, sessions)
        await run_many(work.conn, _INSERT_PLACE, places)
    return refused


def _caller_kind(o: BridgeOpen) -> str | None:
    if o.bridge.caller_id is None:
        return None
    return "application" if o.bridge.caller_kind == "application" else "agent"


def _unknown_caller(o: BridgeOpen, found: set[tuple[str, str]]) -> HubError | None:
    """Why the bridge's caller is refused, as ``POST /v1/sessions`` refuses it; None if it
    is known (or anonymous)."""
    kind = _caller_kind(o)
    if kind is None or (kind, o.bridge.caller_id) in found:
        return None
    if kind == "application":
        return UnknownBridgeCaller(
            f"No application {o.bridge.caller_id!r} registered by the operator as the "
            "bridge's caller (callerKind application)."
        )
    return UnregisteredAgent(f"No registered agent {o.bridge.caller_id!r} as the bridge's caller.")


_THERE = Prepared(
    union_all(
        # the sessions there already
        select(literal_column("'session'"), col(Session.id), literal_column("NULL")).where(
            col(Session.id).in_(bindparam("sessions", expanding=True))
        ),
        # the callers that are registered agents
        select(literal_column("'agent'"), col(Agent.id), literal_column("NULL")).where(
            col(Agent.id).in_(bindparam("agents", expanding=True)),
            col(Agent.deleted_at).is_(None),
        ),
        # the applications the operator registered (revoked since is fine: it called)
        select(literal_column("'application'"), col(OAuthClient.id), literal_column("NULL")).where(
            col(OAuthClient.id).in_(bindparam("apps", expanding=True))
        ),
        # and the leaders still registered, with the thumbprints of their keys
        select(literal_column("'leader'"), col(Agent.id), col(Agent.key_thumbprint)).where(
            col(Agent.id).in_(bindparam("leaders", expanding=True)),
            col(Agent.deleted_at).is_(None),
        ),
    )
)
_INSERT_SESSION = Prepared(insert(Session))
_INSERT_PLACE = Prepared(insert(SessionParticipant))
"""Built once: building a statement costs more than running it on SQLite."""
