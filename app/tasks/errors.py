"""Tasks' errors: the messages that name, start and move a task."""

from __future__ import annotations

from app.errors import Conflict, InvalidInput, NotFound


class TaskNotFound(NotFound):
    """No task with this id that the caller leads or executes."""

    code = "task-not-found"


class UnknownTask(InvalidInput):
    """A message or trigger names a task this session or group does not have."""

    code = "unknown-task"


class PartnerUnnamed(InvalidInput):
    """A start command names no partner (``partnerId`` or exactly one mention)."""

    code = "partner-unnamed"


class TaskIdMissing(InvalidInput):
    """A task command other than start names no ``taskId``."""

    code = "task-id-missing"


class SelfPartner(InvalidInput):
    """A leader named as the partner of its own task."""

    code = "self-partner"


class PartnerNotHere(InvalidInput):
    """The named partner does not take part in this session or group."""

    code = "partner-not-here"


class AmbiguousTask(Conflict):
    """The task id names tasks in more than one session: name the session."""

    code = "ambiguous-task-id"


class TaskElsewhere(Conflict):
    """The message names a task of another place: another group, the session's
    point-to-point part, or a group (a task is posted about where it lives)."""

    code = "task-elsewhere"


class TaskExists(Conflict):
    """A start for a task id the session already has, with another partner."""

    code = "task-exists"


class IllegalTaskMove(Conflict):
    """A move the AIP state table can never allow now: the task is final. Not retryable."""

    code = "illegal-task-move"


class WrongTaskRole(Conflict):
    """A command from someone other than the task's leader, a report from other than its
    partner."""

    code = "wrong-task-role"


class TaskBusy(Conflict):
    """The task kept moving under this message: send it again (retryable)."""

    code = "task-busy"
