"""Benchmarks: each one runs its baseline in the same run and reports the ratio."""
