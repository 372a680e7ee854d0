"""Ships ``migrations/`` (kept at the top of the repository) inside the hub's wheel as
``app/migrations``, so ``agenthub migrate`` works from any directory after a plain install.
An editable install leaves them where they are; ``app.cli`` finds them in either place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class HubMigrations(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "editable":
            build_data["force_include"][str(Path(self.root) / "migrations")] = "app/migrations"
