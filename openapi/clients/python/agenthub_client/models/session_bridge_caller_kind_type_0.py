from enum import StrEnum

class SessionBridgeCallerKindType0(StrEnum):
    AGENT = "agent"
    APPLICATION = "application"

    def __str__(self) -> str:
        return str(self.value)
