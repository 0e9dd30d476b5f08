"""The database file as the bot creates it: a clear error when it cannot, private when it can."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from storage.database import DatabaseFileError, open_database


async def test_a_folder_the_bot_may_not_write_is_named_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Docker case: a relative DATABASE_PATH under the root-owned /app. Root may write
    # anywhere, so the refusal is the operating system's answer, played by a fake os.mkdir.
    def refuse(path: object, mode: int = 0o777) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "mkdir", refuse)
    with pytest.raises(DatabaseFileError) as raised:
        await open_database(Path("data") / "pyramid.sqlite3")
    assert raised.value.path == tmp_path / "data" / "pyramid.sqlite3"
    assert raised.value.reason == f"permission denied: {tmp_path / 'data'}"
