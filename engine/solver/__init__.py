"""The best-arrangement solver: exact search under a learned model of the field."""
