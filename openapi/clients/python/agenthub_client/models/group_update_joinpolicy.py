from enum import StrEnum

class GroupUpdateJoinpolicy(StrEnum):
    APPLY = "apply"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
