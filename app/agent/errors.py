"""The kit's exception tree."""

from __future__ import annotations

from typing import Any


class KitError(Exception):
    """Base of every error the kit raises."""


class HubIdentityError(KitError):
    """The hub could not prove who it is (bad signature, wrong key, nonce mismatch...)."""


class HubRequestError(KitError):
    """The hub answered with an error (a problem+json document)."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        super().__init__(f"{status} {problem.get('title', '')}: {problem.get('detail', '')}")


class NotRegisteredError(KitError):
    """The agent has no id yet: register it first."""
