from enum import StrEnum

class TaskState(StrEnum):
    ACCEPTED = "accepted"
    AWAITING_COMPLETION = "awaiting-completion"
    AWAITING_INPUT = "awaiting-input"
    CANCELED = "canceled"
    COMPLETED = "completed"
    FAILED = "failed"
    REJECTED = "rejected"
    WORKING = "working"

    def __str__(self) -> str:
        return str(self.value)
