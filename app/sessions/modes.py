"""What a receiver's declared mode means (GB/Z §6.4: the requester decides each service
agent's mode; hybrid, one agent may take part both ways).

A receiver declared ``p2p`` only takes part point to point (it is not placed in the session's
groups), one declared ``group`` only through the session's groups (it is no partner of the
session's tasks outside groups), and one declared in both (``hybrid``) both ways. Agents the
leader did not declare are not bound by its declarations (and only participants of a session
are partners of its point-to-point tasks, as ever).

    InvalidInput (422)
    ├── NotAP2pReceiver     code "not-a-p2p-receiver"
    └── NotAGroupReceiver   code "not-a-group-receiver"
"""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from agenthub.protocol.messages import TaskCommand, TaskCommandType
from app.groups.models import Group
from app.sessions.errors import NotAGroupReceiver, NotAP2pReceiver
from app.sessions.models import SessionParticipant
from app.tasks.decide import named_partner
from app.tasks.models import Task
from app.tasks.projection import AnyTaskMessage

HYBRID = "hybrid"
GROUP = "group"
P2P = "p2p"


async def _modes(db: AsyncSession, session_id: str) -> dict[str, str | None]:
    """Every participant of the session with its mode (the leader's is None)."""
    rows = await db.exec(
        select(SessionParticipant.agent_id, SessionParticipant.mode).where(
            col(SessionParticipant.session_id) == session_id
        )
    )
    return dict(rows.all())


def _named_partner(message: AnyTaskMessage) -> str | None:
    if not isinstance(message, TaskCommand) or message.command != TaskCommandType.START:
        return None
    return named_partner(message)


async def p2p_partners(db: AsyncSession, message: AnyTaskMessage, session_id: str) -> set[str]:
    """Who may be the partner of the session's point-to-point tasks: its participants but
    those declared in group mode only (a start that names one of them is refused)."""
    modes = await _modes(db, session_id)
    partner = _named_partner(message)
    if partner is not None and modes.get(partner, P2P) == GROUP:
        raise NotAP2pReceiver(
            f"{partner!r} is one of this session's receivers in group mode only: give it the "
            "task in one of the session's groups, or declare it p2p (or both) as well."
        )
    return {agent_id for agent_id, mode in modes.items() if mode != GROUP}


async def check_p2p_report(
    db: AsyncSession, message: AnyTaskMessage, session_id: str, mode: str | None
) -> None:
    """A report by a group-only receiver may not make it the partner of a new
    point-to-point task (reports of one it has, from before a change of mode, still go in)."""
    if mode != GROUP or message.task_id is None:
        return
    if await db.get(Task, (message.task_id, session_id)) is None:
        raise NotAP2pReceiver(
            "You are one of this session's receivers in group mode only: report in its groups."
        )


async def check_group_receiver(db: AsyncSession, group: Group, agent_id: str) -> None:
    """A receiver the leader declared point to point only is not invited to, added to or
    joined to the session's groups. Agents it did not declare (a sub-group's helper found by
    a member, an agent joining an open group) are not bound by its declarations."""
    if (await _modes(db, group.session_id)).get(agent_id) == P2P:
        raise NotAGroupReceiver(
            f"{agent_id!r} is one of this session's receivers in p2p mode only: declare it "
            "group (or both) in the session's receivers first."
        )
