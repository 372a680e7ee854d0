from enum import StrEnum

class TaskResultArtifactType0(StrEnum):
    COMMUNICATION = "communication"
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
