"""Puts the kit's sources (``agenthub/`` at the top of the repository, beside the hub's
``app/``) into the kit's wheel and sdist; an unpacked sdist has them in place already.
An editable install adds the repository to ``sys.path`` instead (``dev-mode-dirs``), so
edits show without a reinstall."""

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
        if not (here / "agenthub").is_dir():  # the repository: the sources are ../agenthub
            build_data["force_include"][str(here.parent / "agenthub")] = "agenthub"
