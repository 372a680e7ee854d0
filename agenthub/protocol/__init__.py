"""AIP v2 wire objects shared by the hub and the kit. Pure pydantic: no FastAPI, no SQL."""

from agenthub.protocol.data import DataItem, FileDataItem, StructuredDataItem, TextDataItem
from agenthub.protocol.messages import (
    AnyMessage,
    Message,
    Product,
    ProductChunk,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatus,
    TaskStatusUpdate,
    parse_message,
)

__all__ = [
    "AnyMessage",
    "DataItem",
    "FileDataItem",
    "Message",
    "Product",
    "ProductChunk",
    "StructuredDataItem",
    "TaskCommand",
    "TaskCommandType",
    "TaskResult",
    "TaskState",
    "TaskStatus",
    "TaskStatusUpdate",
    "TextDataItem",
    "parse_message",
]
