from enum import StrEnum

class GroupViewJoinpolicy(StrEnum):
    APPLY = "apply"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
