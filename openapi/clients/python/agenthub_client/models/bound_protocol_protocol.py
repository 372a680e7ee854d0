from enum import StrEnum

class BoundProtocolProtocol(StrEnum):
    A2A = "a2a"
    AIP = "aip"

    def __str__(self) -> str:
        return str(self.value)
