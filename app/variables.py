"""Which ``AGENTHUB_`` variables something reads, and which set ones nothing does: a
misspelled setting would otherwise be ignored, and its default used (``agenthub check``
fails on one, ``agenthub serve`` warns)."""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path

from app.config import ENV_FILE, ENV_PREFIX, SettingError, Settings, env_name

# AGENTHUB_ variables that are no setting of the hub's but that others read, so a shell or
# .env may hold them beside the hub's: the examples (the hub and token an agent joins with),
# the kit's language-model adapter (agenthub.llm), the benchmarks and the tests
OTHERS_VARIABLES = frozenset(
    {
        "AGENTHUB_URL",
        "AGENTHUB_TOKEN",
        "AGENTHUB_LLM_BASE_URL",
        "AGENTHUB_LLM_MODEL",
        "AGENTHUB_LLM_API_KEY",
        "AGENTHUB_LLM_SYSTEM_PROMPT",
        "AGENTHUB_LLM_TIMEOUT_SECONDS",
        "AGENTHUB_BENCH_SQL_COUNTS",
        "AGENTHUB_DEMO_TEST",
        "AGENTHUB_FUZZ_ACCESS_TOKEN",
        "AGENTHUB_FUZZ_AGENT_ID",
        "AGENTHUB_FUZZ_REGISTRATION_TOKEN",
    }
)
OTHERS_PREFIXES = ("AGENTHUB_TEST_",)


def known_variables() -> frozenset[str]:
    """Every ``AGENTHUB_`` variable someone reads: the hub's settings and ``OTHERS_VARIABLES``."""
    return frozenset(env_name(name) for name in Settings.model_fields) | OTHERS_VARIABLES


def unknown_variables(
    environ: Mapping[str, str] | None = None, env_file: Path = Path(ENV_FILE)
) -> list[SettingError]:
    """Each ``AGENTHUB_`` variable of the environment or ``.env`` that nothing reads (a
    misspelled setting is otherwise ignored, and its default used), with the closest known
    name. Names are matched as the settings are read: whatever their case."""
    found = {name: "the environment" for name in (os.environ if environ is None else environ)}
    if env_file.is_file():
        from dotenv import dotenv_values

        for name in dotenv_values(env_file):
            found.setdefault(name, str(env_file))
    known = known_variables()
    suffixes = [name[len(ENV_PREFIX) :] for name in sorted(known)]
    unknown = []
    for name, where in sorted(found.items()):
        upper = name.upper()
        if not upper.startswith(ENV_PREFIX) or upper in known or upper.startswith(OTHERS_PREFIXES):
            continue
        # compared without the prefix every name shares, which would make any name close
        closest = difflib.get_close_matches(upper[len(ENV_PREFIX) :], suffixes, n=1)
        unknown.append(
            SettingError(
                upper,
                f"no setting has this name (set in {where}), so it is ignored",
                f"did you mean {ENV_PREFIX}{closest[0]}?" if closest else "",
            )
        )
    return unknown
