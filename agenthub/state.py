"""An agent's identity at a hub, kept in one file so that its second run just works.

The file (JSON, mode 0600, written atomically) holds the agent's private key, the id the hub
gave it, the hub's URL and the hub's signing keys as first seen (pinned: a hub whose key
changes is refused, see ``HubClient``). ``Agent(hub_url, state="echo.agent.json")`` reads it,
``Agent.join`` fills it in at the first registration and keeps it current.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenthub.errors import StateFileError as StateFileError  # re-exported: its old home
from agenthub.keys import KEY_FILE_MODE, AgentKey

STATE_VERSION = 1


@dataclass
class AgentState:
    path: Path
    key: AgentKey
    hub_url: str | None = None
    agent_id: str | None = None
    hub_jwks: dict[str, Any] | None = field(default=None, repr=False)

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> AgentState:
        """The saved state, or a new one with a fresh key (saved at once, so the key is
        never lost between registering and saving)."""
        target = Path(path)
        try:
            raw = target.read_text(encoding="utf-8")
        except FileNotFoundError:
            state = cls(target, AgentKey.generate())
            state.save()
            return state
        try:
            data = json.loads(raw)
            if data.get("version") != STATE_VERSION:
                raise StateFileError(
                    f"{target}: not an agenthub state file (version {STATE_VERSION})"
                )
            return cls(
                target,
                AgentKey.from_pem(data["privateKeyPem"].encode()),
                hub_url=data.get("hubUrl"),
                agent_id=data.get("agentId"),
                hub_jwks=data.get("hubJwks"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, StateFileError):
                raise
            raise StateFileError(f"{target}: not a readable agenthub state file ({exc})") from exc

    def forget_registration(self) -> None:
        """The hub no longer knows this agent: keep the key, drop the id and pinned keys."""
        self.agent_id = None
        self.hub_jwks = None

    def save(self) -> None:
        """Write the file with mode 0600, replacing the old one in one step."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = {
            "version": STATE_VERSION,
            "hubUrl": self.hub_url,
            "agentId": self.agent_id,
            "hubJwks": self.hub_jwks,
            "privateKeyPem": self.key.private_pem().decode(),
        }
        fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            os.fchmod(fd, KEY_FILE_MODE)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(body, fh, indent=2)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
