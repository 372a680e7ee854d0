"""Test helpers: factories, live servers, message builders. Fixtures (in conftest modules) use
these; tests import them from here, never from a conftest."""

import httpx

LOOPBACK = httpx.Timeout(60.0)
"""A test's own client to a server on loopback: httpx's default (5 s) is a budget a loaded
machine misses (a registration waited past it with four suites' workers at once); a hang is
the test timeout's to catch."""
