from enum import StrEnum

class MessageArtifactType0(StrEnum):
    COMMUNICATION = "communication"
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
