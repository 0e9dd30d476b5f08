"""What a database setting may say: a SQLite file's path or URL, or a PostgreSQL URL in the
spellings people write; anything else, and a password anywhere in it, as one sentence."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.database import DatabaseUnreachableError, shown_url
from storage.errors import MigrationError
from storage.sqlite import SqliteDatabase
from storage.stores import open_database
from tests.postgres import guest_database


def closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens (it was just bound and let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory, where a setting taken for a path would leave folders."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "scheme", ["POSTGRESQL", "postgresql+asyncpg", "Postgres", "postgres+asyncpg", "postgresql"]
)
async def test_the_postgresql_spellings_people_write_name_the_server_not_a_file(
    cwd: Path, scheme: str
) -> None:
    url = f"{scheme}://bot:secret@127.0.0.1:{closed_port()}/pyramid"
    with pytest.raises(DatabaseUnreachableError, match="connection refused"):
        await open_database(url)
    assert list(cwd.iterdir()) == [], "a folder was made of the URL"


@pytest.mark.parametrize(
    "url",
    [
        "mysql://bot:secret@db/pyramid",
        "sqlite+pysqlcipher://:secret@/pyramid.db",
        "postgresql+psycopg2://bot:secret@db/pyramid",
        "redis://db:6379",
    ],
)
async def test_a_database_url_of_an_unknown_kind_is_refused_and_makes_nothing(
    cwd: Path, url: str
) -> None:
    with pytest.raises(ValueError, match="must be a SQLite file's path") as raised:
        await open_database(url)
    assert "secret" not in str(raised.value)
    assert list(cwd.iterdir()) == [], "a folder was made of the URL"


async def test_sqlite_urls_mean_what_sqlalchemy_means_three_slashes_relative_four_absolute(
    cwd: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("absolute")
    for url in ("sqlite:///data/relative.sqlite3", f"SQLite:///{elsewhere}/absolute.sqlite3"):
        database = await open_database(url)
        await database.close()
    assert (cwd / "data" / "relative.sqlite3").is_file()
    assert (elsewhere / "absolute.sqlite3").is_file()
    assert sorted(path.name for path in cwd.iterdir()) == ["data"], "a sqlite: folder was made"


async def test_a_sqlite_url_without_a_file_is_a_database_in_memory(cwd: Path) -> None:
    for url in ("sqlite://", "sqlite:///:memory:"):
        database = await open_database(url)
        assert isinstance(database, SqliteDatabase) and not database.readers
        await database.close()
    assert list(cwd.iterdir()) == []


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("sqlite://server/pyramid.db", "sqlite:///relative/path or sqlite:////absolute/path"),
        ("sqlite:///pyramid.db?mode=ro", "sqlite:///relative/path or sqlite:////absolute/path"),
        ("postgresql://bot:secret@db:abc/pyramid", "port must be a number from 1 to 65535"),
        ("postgresql://bot:secret@db:99999/pyramid", "port must be a number from 1 to 65535"),
        ("postgresql://bot:secret@[::1/pyramid", "is not a URL"),
        ("postgresql://bot:secret@127.0.0.1:9/pyramid?sslmode=sometimes", "cannot be used"),
    ],
)
async def test_a_malformed_database_url_is_one_sentence(cwd: Path, url: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as raised:
        await open_database(url)
    assert "secret" not in str(raised.value)
    assert str(raised.value).endswith(".")
    assert list(cwd.iterdir()) == []


def test_a_password_given_as_a_parameter_is_never_shown() -> None:
    url = "postgresql://bot@db:5432/pyramid?sslmode=require&password=s3cret&sslpassword=k3y"
    assert shown_url(url) == (
        "postgresql://bot@db:5432/pyramid?sslmode=require&password=***&sslpassword=***"
    )
    assert shown_url("postgresql://bot:s3cret@db/pyramid?password=s3cret") == (
        "postgresql://bot:***@db/pyramid?password=***"
    )
    # A URL urllib cannot take apart is still shown without its password.
    assert "s3cret" not in shown_url("postgresql://bot:s3cret@[::1/pyramid")


async def test_the_unreachable_database_sentence_hides_a_password_given_as_a_parameter() -> None:
    url = f"postgresql://bot@127.0.0.1:{closed_port()}/pyramid?password=s3cret"
    with pytest.raises(DatabaseUnreachableError) as raised:
        await open_database(url)
    assert "s3cret" not in str(raised.value)
    assert "password=***" in str(raised.value)


@pytest.fixture
async def guest_url(postgres_server: str) -> AsyncIterator[str]:
    """A role that may connect to a new database but create nothing in its schema."""
    async with guest_database(postgres_server, f"pp_guest_{os.getpid()}") as url:
        yield url


@pytest.mark.slow
async def test_a_role_without_create_on_the_schema_is_told_in_one_sentence(
    guest_url: str,
) -> None:
    with pytest.raises(MigrationError) as raised:
        await open_database(guest_url)
    name = f"pp_guest_{os.getpid()}"
    assert str(raised.value) == (
        f"The database role {name} may not create or change the bot's tables (permission denied "
        "for schema public); grant it CREATE on the schema, or start the bot once as a role "
        "that may."
    )
