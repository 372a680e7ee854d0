from enum import StrEnum

class TaskResultSenderrole(StrEnum):
    LEADER = "leader"
    PARTNER = "partner"

    def __str__(self) -> str:
        return str(self.value)
