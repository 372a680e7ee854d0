"""Puts the kit's sources (``agenthub/`` at the top of the repository, beside the hub's
``app/``) and the LICENSE into the kit's wheel and sdist. An editable install adds the
repository to ``sys.path`` instead (``dev-mode-dirs``), so edits show without a reinstall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class KitSources(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        here = Path(self.root)
        # from the repository: ../agenthub; from an unpacked sdist: ./agenthub
        base = here if (here / "agenthub").is_dir() else here.parent
        build_data["force_include"][str(base / "agenthub")] = "agenthub"
        if self.target_name == "sdist" and (base / "LICENSE").is_file() and base != here:
            build_data["force_include"][str(base / "LICENSE")] = "LICENSE"
