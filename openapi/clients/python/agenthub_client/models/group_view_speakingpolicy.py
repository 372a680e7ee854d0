from enum import StrEnum

class GroupViewSpeakingpolicy(StrEnum):
    FREE = "free"
    TURNS = "turns"

    def __str__(self) -> str:
        return str(self.value)
