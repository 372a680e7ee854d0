from enum import StrEnum

class TaskStatusUpdateArtifactType0(StrEnum):
    COMMUNICATION = "communication"
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
