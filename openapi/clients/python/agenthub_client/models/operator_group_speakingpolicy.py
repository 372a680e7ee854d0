from enum import StrEnum

class OperatorGroupSpeakingpolicy(StrEnum):
    FREE = "free"
    TURNS = "turns"

    def __str__(self) -> str:
        return str(self.value)
