"""The agent kit: what an agent developer imports to take part. Imports only app.protocol."""

from app.agent.agent import Agent
from app.agent.errors import (
    AnswerSignatureError,
    CallFailed,
    CallTokenError,
    HubIdentityError,
    HubRequestError,
    KitError,
    NotRegisteredError,
    UnsafeCallbackError,
)
from app.agent.hub import HubClient
from app.agent.keys import AgentKey
from app.agent.leader import Leader
from app.agent.llm import ChatCompletionsHandler, LLMCallError, LLMConfig, LLMConfigError
from app.agent.partner import TaskContext, TaskHandler

__all__ = [
    "Agent",
    "AgentKey",
    "AnswerSignatureError",
    "CallFailed",
    "CallTokenError",
    "ChatCompletionsHandler",
    "HubClient",
    "HubIdentityError",
    "HubRequestError",
    "KitError",
    "LLMCallError",
    "LLMConfig",
    "LLMConfigError",
    "Leader",
    "NotRegisteredError",
    "TaskContext",
    "TaskHandler",
    "UnsafeCallbackError",
]
