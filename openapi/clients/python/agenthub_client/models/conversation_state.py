from enum import StrEnum

class ConversationState(StrEnum):
    ASYNC_TASK_ASSIGNMENT = "async-task-assignment"
    CONCLUSION = "conclusion"
    DISCUSSION = "discussion"
    PAUSE_AND_TRIGGER = "pause-and-trigger"
    SYNC_TASK_ASSIGNMENT = "sync-task-assignment"

    def __str__(self) -> str:
        return str(self.value)
