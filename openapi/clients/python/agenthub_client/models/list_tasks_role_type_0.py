from enum import StrEnum

class ListTasksRoleType0(StrEnum):
    LEADER = "leader"
    PARTNER = "partner"

    def __str__(self) -> str:
        return str(self.value)
