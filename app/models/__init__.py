"""SQLModel tables, one module per aggregate. Importing this package registers them all."""

from sqlmodel import SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# isort: split

from app.models.agent import Agent, AgentKey, AgentLabel  # noqa: E402
from app.models.auth import UsedJti  # noqa: E402
from app.models.certificate import Certificate  # noqa: E402
from app.models.group import (  # noqa: E402
    Group,
    GroupEvent,
    GroupMember,
    GroupTrigger,
    GroupTriggerTask,
)
from app.models.inbox import InboxEvent  # noqa: E402
from app.models.message import StoredMessage  # noqa: E402
from app.models.session import Session, SessionParticipant  # noqa: E402
from app.models.task import Task  # noqa: E402

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
    "Session",
    "SessionParticipant",
    "StoredMessage",
    "Task",
    "UsedJti",
]
