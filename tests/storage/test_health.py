"""The store's health: an outage is said once when it begins and once when it ends, with the
actions that failed, and the background loops' own logs stay quiet about it."""

from __future__ import annotations

import logging

import pytest

from storage.health import StoreHealth, log_failure

log = logging.getLogger("tests.health")


class Clock:
    """Monotonic seconds that move when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def refused(error: BaseException) -> str | None:
    return "connection refused" if isinstance(error, ConnectionRefusedError) else None


def messages(caplog: pytest.LogCaptureFixture) -> list[tuple[str, int, str, bool]]:
    return [(r.name, r.levelno, r.getMessage(), r.exc_info is not None) for r in caplog.records]


def test_an_outage_is_told_when_it_begins_and_when_it_ends_with_the_actions_that_failed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    clock = Clock()
    health = StoreHealth(refused, clock=clock)
    for _ in range(3):
        with pytest.raises(ConnectionRefusedError), health.watch():
            raise ConnectionRefusedError(111, "Connection refused")
    # A loop catches what the store's call already reported: not counted again, not logged.
    error = ConnectionRefusedError(111, "Connection refused")
    with pytest.raises(ConnectionRefusedError), health.watch():
        raise error
    log_failure(log, health, error, "the watch failed")
    # Raised from the outage, through the tables' own error: the outage still explains it.
    try:
        raise RuntimeError("could not save") from ConnectionRefusedError(111, "refused")
    except RuntimeError as wrapped:
        log_failure(log, health, wrapped, "the deadline failed")
    assert health.is_away
    clock.now += 20.25
    with health.watch():
        pass
    assert not health.is_away
    assert messages(caplog) == [
        (
            "storage.health",
            logging.WARNING,
            "The database cannot be reached (connection refused); actions on it fail until it "
            "is back.",
            False,
        ),
        (
            "storage.health",
            logging.INFO,
            "The database is back after 20.2 s; 5 actions on it failed meanwhile.",
            False,
        ),
    ]


def test_a_failure_that_is_not_the_store_being_away_is_logged_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    health = StoreHealth(refused)
    with pytest.raises(ValueError), health.watch():
        raise ValueError("a bug")
    try:
        raise ValueError("a bug")
    except ValueError as error:
        log_failure(log, health, error, "the watch failed in channel %s", 7)
    assert not health.is_away
    assert messages(caplog) == [
        ("tests.health", logging.ERROR, "the watch failed in channel 7", True)
    ]


def test_a_sqlite_file_never_goes_away(caplog: pytest.LogCaptureFixture) -> None:
    health = StoreHealth()
    error = ConnectionRefusedError(111, "Connection refused")
    assert not health.report(error)
    log_failure(log, health, error, "the watch failed")
    assert [(level, exc_info) for _, level, _, exc_info in messages(caplog)] == [
        (logging.ERROR, True)
    ]
