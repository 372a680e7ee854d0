"""Every table of the hub, registered by importing this module (migrations, ``create_all``)."""

from app.agents.models import Agent, AgentKey, AgentLabel
from app.auth.models import UsedJti
from app.certificates.models import Certificate
from app.core.models import StoredMessage
from app.groups.models import (
    Group,
    GroupEvent,
    GroupMember,
    GroupTrigger,
    GroupTriggerTask,
)
from app.inbox.models import InboxEvent
from app.oauth.models import OAuthClient
from app.sessions.models import Session, SessionParticipant
from app.tasks.models import Task

__all__ = [
    "Agent",
    "AgentKey",
    "AgentLabel",
    "Certificate",
    "Group",
    "GroupEvent",
    "GroupMember",
    "GroupTrigger",
    "GroupTriggerTask",
    "InboxEvent",
    "OAuthClient",
    "Session",
    "SessionParticipant",
    "StoredMessage",
    "Task",
    "UsedJti",
]
