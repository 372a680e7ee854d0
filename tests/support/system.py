"""Programs from Debian's packages that some tests drive (nginx, docker-compose, redis-server,
chromium and chromedriver).

Where one is missing, its tests are skipped on a developer's machine; CI (``.ci/run``)
installs them and sets ``AGENTHUB_TEST_REQUIRE_ALL=1``, so there a missing program fails.
"""

from __future__ import annotations

import os
import shutil

import pytest


def require(binary: str, package: str) -> str:
    """The path of ``binary``; skip (or, in CI, fail) when it is not installed."""
    path = shutil.which(binary) or next(
        (p for p in (f"/usr/sbin/{binary}", f"/usr/bin/{binary}") if os.access(p, os.X_OK)),
        None,
    )
    if path:
        return path
    message = f"needs {binary}: apt-get install {package}"
    if os.environ.get("AGENTHUB_TEST_REQUIRE_ALL") == "1":
        pytest.fail(message + " (.ci/run installs it)")
    pytest.skip(message)
