from enum import StrEnum

class ListOperatorAgentsProtocolType0(StrEnum):
    A2A = "a2a"
    AIP = "aip"

    def __str__(self) -> str:
        return str(self.value)
