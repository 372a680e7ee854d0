from enum import StrEnum

class ListOperatorAgentsStatusType0(StrEnum):
    OFFLINE = "offline"
    ONLINE = "online"

    def __str__(self) -> str:
        return str(self.value)
