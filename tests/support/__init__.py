"""Test helpers: factories, live servers, message builders. Fixtures (in conftest modules) use
these; tests import them from here, never from a conftest."""
