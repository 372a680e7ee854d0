from enum import StrEnum

class GroupUpdateJoinPolicyType0(StrEnum):
    APPLY = "apply"
    INVITE = "invite"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
