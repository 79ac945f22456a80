"""Benchmarks of gateway-tui, each figure beside a floor measured in the same run.

Run with ``make bench`` (or ``python -m bench``); see bench/RESULTS.md for the last run.
Nothing here is a test: the test suite has no timed assertions.
"""
