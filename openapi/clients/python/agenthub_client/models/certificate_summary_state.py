from enum import StrEnum

class CertificateSummaryState(StrEnum):
    EXPIRED = "expired"
    NONE = "none"
    REVOKED = "revoked"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
