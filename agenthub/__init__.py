"""agenthub, the agent kit: what an agent developer imports to take part in an agenthub hub.

``from agenthub import Agent, AgentKey, HubClient, Leader, TaskHandler``; what the leader's calls
answer, typed (``TaskAnswer``, the stream events ``TaskEvent``...); and the GB/Z Annex B
collaboration patterns (``fan_out``, ``negotiate``, ``subscribe``, ``start_when``); the AIP v2
wire objects are in ``agenthub.protocol``. The kit imports nothing of the hub service (``app``).
"""

from agenthub.a2a import A2AOptions
from agenthub.agent import Agent
from agenthub.callbacks import CallbackPolicy
from agenthub.errors import (
    A2ACallFailed,
    AnswerMismatchError,
    AnswerSignatureError,
    CallFailed,
    CallTokenError,
    CallTokenMissing,
    CallTokenUnverified,
    HubIdentityError,
    HubRequestError,
    KitError,
    NotRegisteredError,
    ProductsTooLarge,
    StateFileError,
    TaskMoveError,
    UnsafeCallbackError,
)
from agenthub.hub import HubClient
from agenthub.keys import AgentKey
from agenthub.leader import Leader
from agenthub.llm import (
    ChatCompletionsHandler,
    ChatModel,
    LLMCallError,
    LLMConfig,
    LLMConfigError,
)
from agenthub.llm_groups import take_part_in_groups
from agenthub.partner import TaskContext, TaskHandler
from agenthub.patterns import (
    AllDeclined,
    FanOutFailed,
    Gathered,
    Negotiation,
    Outcome,
    Subtask,
    fan_out,
    negotiate,
)
from agenthub.results import ProductEvent, ResultEvent, StatusEvent, TaskAnswer, TaskEvent
from agenthub.state import AgentState
from agenthub.triggers import Subscribed, Trigger, start_when, subscribe

__version__ = "0.1.0"

__all__ = [
    "A2ACallFailed",
    "A2AOptions",
    "Agent",
    "AgentKey",
    "AgentState",
    "AllDeclined",
    "AnswerMismatchError",
    "AnswerSignatureError",
    "CallFailed",
    "CallTokenError",
    "CallTokenMissing",
    "CallTokenUnverified",
    "CallbackPolicy",
    "ChatCompletionsHandler",
    "ChatModel",
    "FanOutFailed",
    "Gathered",
    "HubClient",
    "HubIdentityError",
    "HubRequestError",
    "KitError",
    "LLMCallError",
    "LLMConfig",
    "LLMConfigError",
    "Leader",
    "Negotiation",
    "NotRegisteredError",
    "Outcome",
    "ProductEvent",
    "ProductsTooLarge",
    "ResultEvent",
    "StateFileError",
    "StatusEvent",
    "Subscribed",
    "Subtask",
    "TaskAnswer",
    "TaskContext",
    "TaskEvent",
    "TaskHandler",
    "TaskMoveError",
    "Trigger",
    "UnsafeCallbackError",
    "__version__",
    "fan_out",
    "negotiate",
    "start_when",
    "subscribe",
    "take_part_in_groups",
]
