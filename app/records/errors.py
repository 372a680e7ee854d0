"""The record's errors: a message that cannot be recorded as sent, or a relayed answer."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, InvalidInput


class SenderNotCaller(Forbidden):
    """A message whose ``senderId`` is not the authenticated agent."""

    code = "sender-not-caller"


class WrongSenderRole(Forbidden):
    """A message whose ``senderRole`` is not the sender's role here."""

    code = "wrong-sender-role"


class MisaddressedMessage(InvalidInput):
    """A message whose ``sessionId`` or ``groupId`` is not the place it was posted to."""

    code = "misaddressed-message"


class UnstorableMessage(InvalidInput):
    """A message that cannot be stored as JSON."""

    code = "unstorable-message"


class MessageWithoutData(InvalidInput):
    """A plain message with no data items: GB/Z 185.6 Table 3 makes its data mandatory."""

    code = "message-without-data"


class BadAnswer(InvalidInput):
    """A relayed answer that is no JSON-RPC TaskResult for this session's task, or whose
    signed sender is not the partner."""

    code = "bad-answer"


class OwnAnswer(InvalidInput):
    """An agent relaying its own answers (it records them with ``POST …/messages``)."""

    code = "own-answer"


class AnswerNotYours(InvalidInput):
    """A relayed answer for a task the caller does not lead with that partner."""

    code = "answer-not-yours"


class MessageIdReused(Conflict):
    """The sender used this message id before, for another session or group."""

    code = "message-id-reused"
