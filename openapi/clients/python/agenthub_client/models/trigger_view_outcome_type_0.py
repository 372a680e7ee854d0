from enum import StrEnum

class TriggerViewOutcomeType0(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
