from enum import StrEnum

class MessageSenderrole(StrEnum):
    LEADER = "leader"
    PARTNER = "partner"

    def __str__(self) -> str:
        return str(self.value)
