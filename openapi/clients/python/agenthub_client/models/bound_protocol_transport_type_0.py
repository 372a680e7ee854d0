from enum import StrEnum

class BoundProtocolTransportType0(StrEnum):
    HTTPJSON = "HTTP+JSON"
    JSONRPC = "JSONRPC"

    def __str__(self) -> str:
        return str(self.value)
