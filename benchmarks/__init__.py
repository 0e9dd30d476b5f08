"""Benchmarks: scripts that print measured figures; never part of the test run."""
