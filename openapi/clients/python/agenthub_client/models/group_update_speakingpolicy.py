from enum import StrEnum

class GroupUpdateSpeakingpolicy(StrEnum):
    FREE = "free"
    TURNS = "turns"

    def __str__(self) -> str:
        return str(self.value)
