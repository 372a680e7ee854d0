from enum import StrEnum

class MemberState(StrEnum):
    ACTIVE = "active"
    APPLIED = "applied"
    DECLINED = "declined"
    INVITED = "invited"
    LEFT = "left"
    REJECTED = "rejected"
    RELEASED = "released"
    REMOVED = "removed"

    def __str__(self) -> str:
        return str(self.value)
