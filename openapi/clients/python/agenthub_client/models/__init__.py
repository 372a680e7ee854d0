""" Contains all the data models used in inputs/outputs """

from .agent_card import AgentCard
from .agent_card_publicjwk import AgentCardPublicjwk
from .agent_card_status import AgentCardStatus
from .agent_name import AgentName
from .agent_page import AgentPage
from .agent_registration import AgentRegistration
from .agent_update import AgentUpdate
from .application_create import ApplicationCreate
from .authorization_server_metadata import AuthorizationServerMetadata
from .batch_outcome import BatchOutcome
from .batch_outcome_problem_type_0 import BatchOutcomeProblemType0
from .batch_result import BatchResult
from .bound_protocol import BoundProtocol
from .bound_protocol_protocol import BoundProtocolProtocol
from .bound_protocol_transport_type_0 import BoundProtocolTransportType0
from .bridge_caller import BridgeCaller
from .bridge_caller_kind import BridgeCallerKind
from .certificate_page import CertificatePage
from .certificate_request import CertificateRequest
from .certificate_summary import CertificateSummary
from .certificate_summary_state import CertificateSummaryState
from .client_standing import ClientStanding
from .client_standing_kind import ClientStandingKind
from .conversation_state import ConversationState
from .file_data_item import FileDataItem
from .file_data_item_metadata_type_0 import FileDataItemMetadataType0
from .floor import Floor
from .gbz_data_item import GbzDataItem
from .gbz_data_item_metadata import GbzDataItemMetadata
from .get_agent_a2a_card_a2a_agent_card import GetAgentA2ACardA2AAgentCard
from .get_group_agent_card_response_get_group_agent_card import GetGroupAgentCardResponseGetGroupAgentCard
from .get_jwks_response_get_jwks import GetJwksResponseGetJwks
from .group_a2a_body import GroupA2ABody
from .group_a2a_body_params import GroupA2ABodyParams
from .group_create import GroupCreate
from .group_create_joinpolicy import GroupCreateJoinpolicy
from .group_create_speakingpolicy import GroupCreateSpeakingpolicy
from .group_list import GroupList
from .group_message_page import GroupMessagePage
from .group_tree_node import GroupTreeNode
from .group_update import GroupUpdate
from .group_update_joinpolicy import GroupUpdateJoinpolicy
from .group_update_speakingpolicy import GroupUpdateSpeakingpolicy
from .group_view import GroupView
from .group_view_joinpolicy import GroupViewJoinpolicy
from .group_view_speakingpolicy import GroupViewSpeakingpolicy
from .healthz_response_healthz import HealthzResponseHealthz
from .hub_health import HubHealth
from .hub_health_broker import HubHealthBroker
from .hub_health_store import HubHealthStore
from .hub_metadata import HubMetadata
from .invitation_create import InvitationCreate
from .issued_certificate import IssuedCertificate
from .list_agents_protocol_type_0 import ListAgentsProtocolType0
from .list_agents_status_type_0 import ListAgentsStatusType0
from .list_operator_agents_protocol_type_0 import ListOperatorAgentsProtocolType0
from .list_operator_agents_status_type_0 import ListOperatorAgentsStatusType0
from .list_operator_sessions_state_type_0 import ListOperatorSessionsStateType0
from .list_sessions_state_type_0 import ListSessionsStateType0
from .list_subgroups_depth import ListSubgroupsDepth
from .list_tasks_role_type_0 import ListTasksRoleType0
from .member_list import MemberList
from .member_role_update import MemberRoleUpdate
from .member_role_update_role import MemberRoleUpdateRole
from .member_state import MemberState
from .member_view import MemberView
from .member_view_role import MemberViewRole
from .message import Message
from .message_artifact_type_0 import MessageArtifactType0
from .message_batch import MessageBatch
from .message_page import MessagePage
from .message_senderrole import MessageSenderrole
from .o_auth_client_create import OAuthClientCreate
from .o_auth_client_issued import OAuthClientIssued
from .o_auth_client_list import OAuthClientList
from .o_auth_client_view import OAuthClientView
from .o_auth_token import OAuthToken
from .operator_agent import OperatorAgent
from .operator_agent_page import OperatorAgentPage
from .operator_agent_publicjwk import OperatorAgentPublicjwk
from .operator_agent_status import OperatorAgentStatus
from .operator_group import OperatorGroup
from .operator_group_joinpolicy import OperatorGroupJoinpolicy
from .operator_group_page import OperatorGroupPage
from .operator_group_speakingpolicy import OperatorGroupSpeakingpolicy
from .operator_session import OperatorSession
from .operator_session_page import OperatorSessionPage
from .operator_session_state import OperatorSessionState
from .operator_task_page import OperatorTaskPage
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .product import Product
from .product_chunk import ProductChunk
from .product_chunk_artifact_type_0 import ProductChunkArtifactType0
from .product_chunk_senderrole import ProductChunkSenderrole
from .protocol_binding import ProtocolBinding
from .protocol_binding_protocol import ProtocolBindingProtocol
from .protocol_binding_transport_type_0 import ProtocolBindingTransportType0
from .public_jwk import PublicJwk
from .readyz_response_readyz import ReadyzResponseReadyz
from .receiver_spec import ReceiverSpec
from .receiver_spec_mode import ReceiverSpecMode
from .receiver_spec_params_type_0 import ReceiverSpecParamsType0
from .relayed_answer import RelayedAnswer
from .session_bridge import SessionBridge
from .session_bridge_caller_kind_type_0 import SessionBridgeCallerKindType0
from .session_bridge_view import SessionBridgeView
from .session_bridge_view_caller_kind_type_0 import SessionBridgeViewCallerKindType0
from .session_context import SessionContext
from .session_create import SessionCreate
from .session_page import SessionPage
from .session_receiver import SessionReceiver
from .session_receiver_mode import SessionReceiverMode
from .session_receiver_params_type_0 import SessionReceiverParamsType0
from .session_sender import SessionSender
from .session_update import SessionUpdate
from .session_update_state_type_0 import SessionUpdateStateType0
from .session_view import SessionView
from .session_view_state import SessionViewState
from .sessions_batch import SessionsBatch
from .sessions_batch_bridges import SessionsBatchBridges
from .skill import Skill
from .structured_data_item import StructuredDataItem
from .structured_data_item_data import StructuredDataItemData
from .structured_data_item_metadata_type_0 import StructuredDataItemMetadataType0
from .task_command import TaskCommand
from .task_command_artifact_type_0 import TaskCommandArtifactType0
from .task_command_command_params_type_0 import TaskCommandCommandParamsType0
from .task_command_senderrole import TaskCommandSenderrole
from .task_command_type import TaskCommandType
from .task_page import TaskPage
from .task_result import TaskResult
from .task_result_artifact_type_0 import TaskResultArtifactType0
from .task_result_senderrole import TaskResultSenderrole
from .task_state import TaskState
from .task_status import TaskStatus
from .task_status_update import TaskStatusUpdate
from .task_status_update_artifact_type_0 import TaskStatusUpdateArtifactType0
from .task_status_update_senderrole import TaskStatusUpdateSenderrole
from .task_view import TaskView
from .text_data_item import TextDataItem
from .text_data_item_metadata_type_0 import TextDataItemMetadataType0
from .token_form import TokenForm
from .token_request import TokenRequest
from .token_response import TokenResponse
from .trigger_create import TriggerCreate
from .trigger_list import TriggerList
from .trigger_view import TriggerView
from .trigger_view_outcome_type_0 import TriggerViewOutcomeType0

__all__ = (
    "AgentCard",
    "AgentCardPublicjwk",
    "AgentCardStatus",
    "AgentName",
    "AgentPage",
    "AgentRegistration",
    "AgentUpdate",
    "ApplicationCreate",
    "AuthorizationServerMetadata",
    "BatchOutcome",
    "BatchOutcomeProblemType0",
    "BatchResult",
    "BoundProtocol",
    "BoundProtocolProtocol",
    "BoundProtocolTransportType0",
    "BridgeCaller",
    "BridgeCallerKind",
    "CertificatePage",
    "CertificateRequest",
    "CertificateSummary",
    "CertificateSummaryState",
    "ClientStanding",
    "ClientStandingKind",
    "ConversationState",
    "FileDataItem",
    "FileDataItemMetadataType0",
    "Floor",
    "GbzDataItem",
    "GbzDataItemMetadata",
    "GetAgentA2ACardA2AAgentCard",
    "GetGroupAgentCardResponseGetGroupAgentCard",
    "GetJwksResponseGetJwks",
    "GroupA2ABody",
    "GroupA2ABodyParams",
    "GroupCreate",
    "GroupCreateJoinpolicy",
    "GroupCreateSpeakingpolicy",
    "GroupList",
    "GroupMessagePage",
    "GroupTreeNode",
    "GroupUpdate",
    "GroupUpdateJoinpolicy",
    "GroupUpdateSpeakingpolicy",
    "GroupView",
    "GroupViewJoinpolicy",
    "GroupViewSpeakingpolicy",
    "HealthzResponseHealthz",
    "HubHealth",
    "HubHealthBroker",
    "HubHealthStore",
    "HubMetadata",
    "InvitationCreate",
    "IssuedCertificate",
    "ListAgentsProtocolType0",
    "ListAgentsStatusType0",
    "ListOperatorAgentsProtocolType0",
    "ListOperatorAgentsStatusType0",
    "ListOperatorSessionsStateType0",
    "ListSessionsStateType0",
    "ListSubgroupsDepth",
    "ListTasksRoleType0",
    "MemberList",
    "MemberRoleUpdate",
    "MemberRoleUpdateRole",
    "MemberState",
    "MemberView",
    "MemberViewRole",
    "Message",
    "MessageArtifactType0",
    "MessageBatch",
    "MessagePage",
    "MessageSenderrole",
    "OAuthClientCreate",
    "OAuthClientIssued",
    "OAuthClientList",
    "OAuthClientView",
    "OAuthToken",
    "OperatorAgent",
    "OperatorAgentPage",
    "OperatorAgentPublicjwk",
    "OperatorAgentStatus",
    "OperatorGroup",
    "OperatorGroupJoinpolicy",
    "OperatorGroupPage",
    "OperatorGroupSpeakingpolicy",
    "OperatorSession",
    "OperatorSessionPage",
    "OperatorSessionState",
    "OperatorTaskPage",
    "Problem",
    "ProblemErrorsItem",
    "Product",
    "ProductChunk",
    "ProductChunkArtifactType0",
    "ProductChunkSenderrole",
    "ProtocolBinding",
    "ProtocolBindingProtocol",
    "ProtocolBindingTransportType0",
    "PublicJwk",
    "ReadyzResponseReadyz",
    "ReceiverSpec",
    "ReceiverSpecMode",
    "ReceiverSpecParamsType0",
    "RelayedAnswer",
    "SessionBridge",
    "SessionBridgeCallerKindType0",
    "SessionBridgeView",
    "SessionBridgeViewCallerKindType0",
    "SessionContext",
    "SessionCreate",
    "SessionPage",
    "SessionReceiver",
    "SessionReceiverMode",
    "SessionReceiverParamsType0",
    "SessionsBatch",
    "SessionsBatchBridges",
    "SessionSender",
    "SessionUpdate",
    "SessionUpdateStateType0",
    "SessionView",
    "SessionViewState",
    "Skill",
    "StructuredDataItem",
    "StructuredDataItemData",
    "StructuredDataItemMetadataType0",
    "TaskCommand",
    "TaskCommandArtifactType0",
    "TaskCommandCommandParamsType0",
    "TaskCommandSenderrole",
    "TaskCommandType",
    "TaskPage",
    "TaskResult",
    "TaskResultArtifactType0",
    "TaskResultSenderrole",
    "TaskState",
    "TaskStatus",
    "TaskStatusUpdate",
    "TaskStatusUpdateArtifactType0",
    "TaskStatusUpdateSenderrole",
    "TaskView",
    "TextDataItem",
    "TextDataItemMetadataType0",
    "TokenForm",
    "TokenRequest",
    "TokenResponse",
    "TriggerCreate",
    "TriggerList",
    "TriggerView",
    "TriggerViewOutcomeType0",
)
