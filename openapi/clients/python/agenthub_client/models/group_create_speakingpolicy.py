from enum import StrEnum

class GroupCreateSpeakingpolicy(StrEnum):
    FREE = "free"
    TURNS = "turns"

    def __str__(self) -> str:
        return str(self.value)
