from enum import StrEnum

class SessionBridgeViewCallerKindType0(StrEnum):
    AGENT = "agent"
    APPLICATION = "application"

    def __str__(self) -> str:
        return str(self.value)
