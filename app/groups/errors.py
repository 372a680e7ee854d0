"""Groups' errors: finding one, who may act in it, its nesting, its conversation and floor."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, InvalidInput, NotFound


class GroupNotFound(NotFound):
    """No group with this id (or not one the caller may see)."""

    code = "group-not-found"


class NotAMember(Forbidden):
    """Only the group's active members may do this."""

    code = "not-a-member"


class Muted(Forbidden):
    """The sender is muted in this group: it may post only when mentioned."""

    code = "muted"


class NotAManager(Forbidden):
    """Only the group's owner or admins may do this."""

    code = "not-a-manager"


class OperatorConfigures(Forbidden):
    """Owners and members set up front are the operator's to configure; agents apply."""

    code = "operator-configures"


class OwnerUnnamed(InvalidInput):
    """An operator-configured group names no ``ownerId``."""

    code = "owner-unnamed"


class SubGroupElsewhere(InvalidInput):
    """A sub-group in another session than its parent group's."""

    code = "sub-group-elsewhere"


class GroupTooDeep(InvalidInput):
    """A sub-group deeper than groups nest."""

    code = "group-too-deep"


class InvitedAndMember(InvalidInput):
    """An agent both invited and made a member."""

    code = "invited-and-member"


class SpeakerNotMember(InvalidInput):
    """``nextSpeaker`` names an agent that is no active member."""

    code = "speaker-not-member"


class SelfNamedSpeaker(InvalidInput):
    """Under turns, the sender named itself the next speaker."""

    code = "self-named-speaker"


class IllegalConversationMove(Conflict):
    """A conversation state the group's current one cannot move to."""

    code = "illegal-conversation-move"


class GroupConcluded(Conflict):
    """The group's conversation is concluded: it takes no more posts or members."""

    code = "group-concluded"


class NotAllowedInState(Conflict):
    """The group's conversation state does not take this post from this sender
    (``agenthub.protocol.groups.POSTING``)."""

    code = "not-allowed-in-state"


class NotYourTurn(Conflict):
    """Under the ``turns`` speaking policy, the floor is another member's."""

    code = "not-your-turn"
