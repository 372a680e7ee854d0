"""Bounded resources: memory per stream, replays, partner task cap (python -m bench.limits)."""
