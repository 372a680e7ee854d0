from enum import StrEnum

class TaskCommandArtifactType0(StrEnum):
    COMMUNICATION = "communication"
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
