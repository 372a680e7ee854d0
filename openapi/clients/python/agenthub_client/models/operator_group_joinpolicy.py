from enum import StrEnum

class OperatorGroupJoinpolicy(StrEnum):
    APPLY = "apply"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
