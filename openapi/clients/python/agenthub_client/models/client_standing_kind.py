from enum import StrEnum

class ClientStandingKind(StrEnum):
    AGENT = "agent"
    APPLICATION = "application"

    def __str__(self) -> str:
        return str(self.value)
