"""A server's table defaults: checked when an admin changes them, kept as JSON, and taken by
every table opened that does not choose again."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from tables.config import make_config
from tables.defaults import TableDefaults


def test_the_deadlines_are_checked_kept_and_taken_by_new_tables() -> None:
    defaults = TableDefaults().changed(declaration_seconds=20, arrangement_seconds=600)
    kept = TableDefaults.from_json(defaults.to_json())
    assert (kept.declaration_seconds, kept.arrangement_seconds) == (20, 600)
    options = make_config("showdown", defaults=kept).options
    assert (options.declaration_seconds, options.arrangement_seconds) == (20, 600)
    options = make_config("showdown", declaration_seconds=45, defaults=kept).options
    assert (options.declaration_seconds, options.arrangement_seconds) == (45, 600)
    with pytest.raises(GameError) as refused:
        TableDefaults().changed(arrangement_seconds=5)
    assert str(refused.value) == "The arrangement deadline must be 15 seconds to an hour, not 5s."
    # Settings stored before the deadlines were a server's take the games' own.
    old = {key: value for key, value in TableDefaults().to_json().items() if "seconds" not in key}
    read = TableDefaults.from_json(old)
    assert (read.declaration_seconds, read.arrangement_seconds) == (60, 180)
