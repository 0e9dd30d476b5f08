"""The database file as the bot creates it: a clear error when it cannot, private when it can."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.sqlite import DatabaseFileError
from storage.stores import open_database


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The common umask 022, under which a file is created 0644 unless its creator says less."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


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


@pytest.mark.usefixtures("usual_umask")
async def test_a_new_database_and_its_wal_files_are_readable_by_the_bot_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data" / "pyramid.sqlite3"
    database = await open_database(path)
    try:
        # The migrations wrote through the WAL: both side files exist while the database is open.
        files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
        assert {file.name: mode(file) for file in files} == {file.name: 0o600 for file in files}
    finally:
        await database.close()
    assert mode(path.parent) == 0o700


@pytest.mark.usefixtures("usual_umask")
async def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    # The operator's folder (a Docker volume, /var/lib/...) is theirs to set.
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o750)
    database = await open_database(folder / "pyramid.sqlite3")
    await database.close()
    assert mode(folder) == 0o750
    assert mode(folder / "pyramid.sqlite3") == 0o600
