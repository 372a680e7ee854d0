"""Group membership's errors: invitations, applications, roles and mute."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, NotFound


class InvitationNotFound(NotFound):
    """No invitation for this agent in this group."""

    code = "invitation-not-found"


class ApplicationNotFound(NotFound):
    """No application from this agent to this group."""

    code = "application-not-found"


class MemberNotFound(NotFound):
    """The agent is not an (active) member of this group."""

    code = "member-not-found"


class NotTheInvitee(Forbidden):
    """Only the invited agent answers its invitation."""

    code = "not-the-invitee"


class InviteOnly(Forbidden):
    """The group takes members by invitation only."""

    code = "invite-only"


class RemovedFromGroup(Forbidden):
    """The agent was removed from this group; its owner may invite it again."""

    code = "removed-from-group"


class OwnerOnly(Forbidden):
    """Only the group's owner (or the operator) may do this."""

    code = "owner-only"


class AlreadyMember(Conflict):
    """The agent is a member already."""

    code = "already-member"


class AlreadyInvited(Conflict):
    """The agent is invited already."""

    code = "already-invited"


class AlreadyApplied(Conflict):
    """The agent has applied already."""

    code = "already-applied"


class WrongMemberState(Conflict):
    """The membership is not in the state this step answers (say, not applied)."""

    code = "wrong-member-state"


class OwnerFixed(Conflict):
    """The owner cannot be muted, change role, leave or be removed."""

    code = "owner-fixed"
