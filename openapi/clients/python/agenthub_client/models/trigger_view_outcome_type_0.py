from enum import StrEnum

class TriggerViewOutcomeType0(StrEnum):
    COMPLETED = "completed"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
