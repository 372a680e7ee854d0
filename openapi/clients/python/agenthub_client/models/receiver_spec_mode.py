from enum import StrEnum

class ReceiverSpecMode(StrEnum):
    GROUP = "group"
    P2P = "p2p"

    def __str__(self) -> str:
        return str(self.value)
