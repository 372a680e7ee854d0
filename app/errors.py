"""The HubError tree: every error a client may cause or see, with its HTTP status and a
stable code (the last segment of its problem ``type``). Free of the web framework: the
handlers that render these as ``application/problem+json`` are ``app.api.problems``.

The generic classes (one per status) are the bases; what the hub raises is always one of
their subclasses, each with a code of its own, kept beside the noun it belongs to (the last
column: ``app.<noun>.errors``; none is here). A client decides by the code, never by the
detail, which is for people. The whole tree, by status then code::

    HubError
    ├── BadRequest                    400 bad-request
    │   ├── BadCursor                 400 bad-cursor
    │   ├── BadLastEventId            400 bad-last-event-id           streams.errors
    │   ├── EmptyPatch                400 empty-patch
    │   ├── InvalidScope              400 invalid-scope               oauth.errors
    │   ├── InvalidTarget             400 invalid-target              oauth.errors
    │   ├── InvalidTokenRequest       400 invalid-token-request       oauth.errors
    │   ├── NotJsonRpc                400 not-json-rpc                a2a_groups.errors
    │   └── UnsupportedGrantType      400 unsupported-grant-type      oauth.errors
    ├── Unauthenticated               401 unauthenticated
    │   ├── AssertionExpired          401 assertion-expired           auth.errors
    │   ├── AssertionReplayed         401 assertion-replayed          auth.errors
    │   ├── BadAuthorizationHeader    401 bad-authorization-header    auth.errors
    │   ├── BadTokenSignature         401 bad-token-signature         auth.errors
    │   ├── ForeignToken              401 foreign-token               auth.errors
    │   ├── InvalidAssertion          401 invalid-assertion           auth.errors
    │   ├── InvalidClient             401 invalid-client              oauth.errors
    │   ├── KeyReplaced               401 key-replaced                auth.errors
    │   ├── MalformedToken            401 malformed-token             auth.errors
    │   ├── MetricsTokenNeeded        401 metrics-token-needed        auth.errors
    │   ├── OperatorTokenNeeded       401 operator-token-needed       auth.errors
    │   ├── OperatorTokenRejected     401 operator-token-rejected     auth.errors
    │   ├── RegistrationTokenNeeded   401 registration-token-needed   auth.errors
    │   ├── RegistrationTokenRejected 401 registration-token-rejected auth.errors
    │   ├── TokenExpired              401 token-expired               auth.errors
    │   ├── TokenMissing              401 token-missing               auth.errors
    │   └── UnknownAgent              401 unknown-agent               auth.errors
    ├── Forbidden                     403 forbidden
    │   ├── InviteOnly                403 invite-only                 members.errors
    │   ├── Muted                     403 muted                       groups.errors
    │   ├── NotAManager               403 not-a-manager               groups.errors
    │   ├── NotAMember                403 not-a-member                groups.errors
    │   ├── NotSessionLeader          403 not-session-leader          sessions.errors
    │   ├── NotTheInvitee             403 not-the-invitee             members.errors
    │   ├── NotYourAgent              403 not-your-agent              agents.errors
    │   ├── OperatorConfigures        403 operator-configures         groups.errors
    │   ├── OperatorOnly              403 operator-only               auth.errors
    │   ├── OwnerOnly                 403 owner-only                  members.errors
    │   ├── RemovedFromGroup          403 removed-from-group          members.errors
    │   ├── SenderNotCaller           403 sender-not-caller           records.errors
    │   └── WrongSenderRole           403 wrong-sender-role           records.errors
    ├── NotFound                      404 not-found
    │   ├── AgentNotFound             404 agent-not-found             agents.errors
    │   ├── ApplicationNotFound       404 application-not-found       members.errors
    │   ├── CertificateNotFound       404 certificate-not-found       certificates.errors
    │   ├── GroupNotFound             404 group-not-found             groups.errors
    │   ├── InvitationNotFound        404 invitation-not-found        members.errors
    │   ├── MemberNotFound            404 member-not-found            members.errors
    │   ├── NoA2aBinding              404 no-a2a-binding              agents.errors
    │   ├── OAuthClientNotFound       404 oauth-client-not-found      oauth.errors
    │   ├── SessionNotFound           404 session-not-found           sessions.errors
    │   └── TaskNotFound              404 task-not-found              tasks.errors
    ├── Conflict                      409 conflict
    │   ├── AicTaken                  409 aic-taken                   agents.errors
    │   ├── AlreadyApplied            409 already-applied             members.errors
    │   ├── AlreadyInvited            409 already-invited             members.errors
    │   ├── AlreadyMember             409 already-member              members.errors
    │   ├── AmbiguousTask             409 ambiguous-task-id           tasks.errors
    │   ├── GroupConcluded            409 group-concluded             groups.errors
    │   ├── IllegalConversationMove   409 illegal-conversation-move   groups.errors
    │   ├── IllegalTaskMove           409 illegal-task-move           tasks.errors
    │   ├── KeyRetired                409 key-retired                 agents.errors
    │   ├── MessageIdReused           409 message-id-reused           records.errors
    │   ├── NotAllowedInState         409 not-allowed-in-state        groups.errors
    │   ├── NotYourTurn               409 not-your-turn               groups.errors
    │   ├── OwnerFixed                409 owner-fixed                 members.errors
    │   ├── PublicKeyTaken            409 public-key-taken            agents.errors
    │   ├── SessionClosed             409 session-closed              sessions.errors
    │   ├── SessionIdTaken            409 session-id-taken            sessions.errors
    │   ├── TaskBusy                  409 task-busy                   tasks.errors
    │   ├── TaskElsewhere             409 task-elsewhere              tasks.errors
    │   ├── TaskExists                409 task-exists                 tasks.errors
    │   ├── TooManyCertificates       409 too-many-certificates       certificates.errors
    │   ├── TooManyTriggers           409 too-many-triggers           triggers.errors
    │   ├── WrongMemberState          409 wrong-member-state          members.errors
    │   └── WrongTaskRole             409 wrong-task-role             tasks.errors
    ├── PayloadTooLarge               413 payload-too-large
    ├── InvalidInput                  422 invalid-input
    │   ├── AnswerNotYours            422 answer-not-yours            records.errors
    │   ├── BadAnswer                 422 bad-answer                  records.errors
    │   ├── BadCertificateRequest     422 bad-csr                     certificates.errors
    │   ├── BadPage                   422 bad-page                    a2a_groups.errors
    │   ├── BadReceivers              422 bad-receivers               sessions.errors
    │   ├── BridgeReceivers           422 bridge-receivers            sessions.errors
    │   ├── CertificateNotTrusted     422 certificate-not-trusted     certificates.errors
    │   ├── CsrKeyMismatch            422 csr-key-mismatch            certificates.errors
    │   ├── DuplicateProtocolBinding  422 duplicate-protocol-binding  agents.errors
    │   ├── UncertifiableEndpoint     422 endpoint-not-certifiable    certificates.errors
    │   ├── GroupTooDeep              422 group-too-deep              groups.errors
    │   ├── InvalidPublicKey          422 invalid-public-key          agents.errors
    │   ├── InvitedAndMember          422 invited-and-member          groups.errors
    │   ├── MessageWithoutData        422 message-without-data        records.errors
    │   ├── MisaddressedMessage       422 misaddressed-message        records.errors
    │   ├── NotAGroupPost             422 not-a-group-post            a2a_groups.errors
    │   ├── NotAGroupReceiver         422 not-a-group-receiver        sessions.errors
    │   ├── NotAP2pReceiver           422 not-a-p2p-receiver          sessions.errors
    │   ├── NullField                 422 null-field
    │   ├── OwnAnswer                 422 own-answer                  records.errors
    │   ├── OwnerUnnamed              422 owner-unnamed               groups.errors
    │   ├── PartnerNotHere            422 partner-not-here            tasks.errors
    │   ├── PartnerUnnamed            422 partner-unnamed             tasks.errors
    │   ├── ProtocolWithoutUrl        422 protocol-without-url        agents.errors
    │   ├── SelfNamedSpeaker          422 self-named-speaker          groups.errors
    │   ├── SelfPartner               422 self-partner                tasks.errors
    │   ├── SpeakerNotMember          422 speaker-not-member          groups.errors
    │   ├── SubGroupElsewhere         422 sub-group-elsewhere         groups.errors
    │   ├── TaskIdMissing             422 task-id-missing             tasks.errors
    │   ├── UnknownBridgeCaller       422 unknown-bridge-caller       sessions.errors
    │   ├── UnknownTask               422 unknown-task                tasks.errors
    │   ├── UnregisteredAgent         422 unregistered-agent          agents.errors
    │   └── UnstorableMessage         422 unstorable-message          records.errors
    ├── RateLimited                   429 rate-limited
    │   ├── CertificateRateExceeded   429 certificate-rate-exceeded
    │   ├── PostRateExceeded          429 post-rate-exceeded
    │   ├── TokenRateExceeded         429 token-rate-exceeded
    │   └── TooManyStreams            429 too-many-streams            streams.errors
    └── Unavailable                   503 unavailable
        ├── ReplicaFull               503 replica-full                streams.errors
        ├── SchemaNotMigrated         503 schema-not-migrated
        ├── StoreUnavailable          503 store-unavailable
        └── StreamsOpening            503 streams-opening"""

from __future__ import annotations

from typing import Any

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://agenthub.dev/problems/"


class HubError(Exception):
    """An error a client caused or may see; carries its HTTP status and a stable code."""

    status: int = 400
    code: str = "bad-request"
    title: str = "Bad request"

    def __init__(self, detail: str | None = None, *, headers: dict[str, str] | None = None):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        self.headers = headers or {}

    def members(self) -> dict[str, Any]:
        """Extension members of the problem, beside its standard ones (none by default)."""
        return {}


class BadRequest(HubError):
    status, code, title = 400, "bad-request", "Bad request"


class InvalidInput(HubError):
    status, code, title = 422, "invalid-input", "Invalid input"


class Unauthenticated(HubError):
    status, code, title = 401, "unauthenticated", "Authentication required"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": "Bearer"})


class Forbidden(HubError):
    status, code, title = 403, "forbidden", "Not allowed"


class NotFound(HubError):
    status, code, title = 404, "not-found", "Not found"


class Conflict(HubError):
    status, code, title = 409, "conflict", "Conflict"


class PayloadTooLarge(HubError):
    status, code, title = 413, "payload-too-large", "Payload too large"


class RateLimited(HubError):
    status, code, title = 429, "rate-limited", "Too many requests"


class Unavailable(HubError):
    status, code, title = 503, "unavailable", "Service unavailable"


class SchemaNotMigrated(Unavailable):
    code, title = "schema-not-migrated", "The store is not migrated"


class BadCursor(BadRequest):
    """A list cursor this hub (or this search) did not issue."""

    code = "bad-cursor"


class EmptyPatch(BadRequest):
    """A PATCH that changes nothing."""

    code = "empty-patch"


class NullField(InvalidInput):
    """A PATCH that sets to null a field that cannot be null."""

    code = "null-field"


class PostRateExceeded(RateLimited):
    """The agent posts faster than its post rate (``AGENTHUB_POSTS_PER_SECOND_PER_AGENT``)."""

    code = "post-rate-exceeded"


class TokenRateExceeded(RateLimited):
    """Token requests from one address faster than the hub takes them."""

    code = "token-rate-exceeded"


class CertificateRateExceeded(RateLimited):
    """The agent asks for certificates faster than the hub issues them."""

    code = "certificate-rate-exceeded"


class StreamsOpening(Unavailable):
    """The process is opening as many streams at once as it may (``Retry-After``)."""

    code = "streams-opening"


class StoreUnavailable(Unavailable):
    """The SQL store does not answer, or is too busy to: nothing changed, retry later."""

    code = "store-unavailable"


_STATUS_CODES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthenticated", "Authentication required"),
    403: ("forbidden", "Not allowed"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    408: ("request-timeout", "Request timeout"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("invalid-input", "Invalid input"),
    429: ("rate-limited", "Too many requests"),
    431: ("headers-too-large", "Request headers too large"),
    500: ("internal-error", "Internal server error"),
    503: ("unavailable", "Service unavailable"),
}


def status_code_and_title(status: int) -> tuple[str, str]:
    """A status's default problem code and title."""
    return _STATUS_CODES.get(status, ("error", "Error"))


def problem_body(
    status: int, detail: str, *, code: str | None = None, title: str | None = None, **extra: Any
) -> dict[str, Any]:
    default_code, default_title = status_code_and_title(status)
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + (code or default_code),
        "title": title or default_title,
        "status": status,
        "detail": detail,
    }
    body.update(extra)
    return body
