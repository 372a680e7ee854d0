from enum import StrEnum

class ProductChunkArtifactType0(StrEnum):
    COMMUNICATION = "communication"
    RESULT = "result"

    def __str__(self) -> str:
        return str(self.value)
