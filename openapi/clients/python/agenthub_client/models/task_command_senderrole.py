from enum import StrEnum

class TaskCommandSenderrole(StrEnum):
    LEADER = "leader"
    PARTNER = "partner"

    def __str__(self) -> str:
        return str(self.value)
