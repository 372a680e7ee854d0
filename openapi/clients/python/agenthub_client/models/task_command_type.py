from enum import StrEnum

class TaskCommandType(StrEnum):
    CANCEL = "cancel"
    COMPLETE = "complete"
    CONTINUE = "continue"
    GET = "get"
    RE_STREAM = "re-stream"
    START = "start"

    def __str__(self) -> str:
        return str(self.value)
