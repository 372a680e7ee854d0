from enum import StrEnum

class BridgeCallerKind(StrEnum):
    AGENT = "agent"
    APPLICATION = "application"

    def __str__(self) -> str:
        return str(self.value)
