from enum import StrEnum

class ListOperatorSessionsStateType0(StrEnum):
    CLOSED = "closed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
