"""agenthub, the agent kit: what an agent developer imports to take part in an agenthub hub.

``from agenthub import Agent, AgentKey, HubClient, Leader, TaskHandler``; the AIP v2 wire
objects are in ``agenthub.protocol``. The kit imports nothing of the hub service (``app``).
"""

from agenthub.agent import Agent
from agenthub.callbacks import CallbackPolicy
from agenthub.errors import (
    AnswerMismatchError,
    AnswerSignatureError,
    CallFailed,
    CallTokenError,
    HubIdentityError,
    HubRequestError,
    KitError,
    NotRegisteredError,
    UnsafeCallbackError,
)
from agenthub.hub import HubClient
from agenthub.keys import AgentKey
from agenthub.leader import Leader
from agenthub.llm import ChatCompletionsHandler, LLMCallError, LLMConfig, LLMConfigError
from agenthub.partner import TaskContext, TaskHandler
from agenthub.state import AgentState, StateFileError

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "AgentKey",
    "AgentState",
    "AnswerMismatchError",
    "AnswerSignatureError",
    "CallFailed",
    "CallTokenError",
    "CallbackPolicy",
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
    "StateFileError",
    "TaskContext",
    "TaskHandler",
    "UnsafeCallbackError",
    "__version__",
]
