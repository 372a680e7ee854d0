from enum import StrEnum

class HubHealthStore(StrEnum):
    DOWN = "down"
    OK = "ok"

    def __str__(self) -> str:
        return str(self.value)
