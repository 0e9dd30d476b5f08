"""The entry point explains a missing token in one sentence and reads its settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import (
    DEFAULT_DATABASE_PATH,
    MISSING_TOKEN_MESSAGE,
    PyramidBot,
    Settings,
    SettingsError,
    load_settings,
    usable_cpus,
)
from storage.database import shown_url
from tables.runtime import ProcessOffload

BOT_SCRIPT = Path(__file__).resolve().parent.parent / "bot.py"


def test_missing_token_exits_2_with_one_sentence_and_no_traceback(tmp_path: Path) -> None:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID"}
    }
    # The working directory is an empty temp dir, so no .env can supply a token.
    result = subprocess.run(
        [sys.executable, str(BOT_SCRIPT)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert MISSING_TOKEN_MESSAGE in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_empty_token_is_refused() -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        load_settings({"DISCORD_TOKEN": "  "})


def test_the_database_defaults_to_a_sqlite_file_when_unset_or_empty() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).database == str(DEFAULT_DATABASE_PATH)
    settings = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": " ", "DATABASE_PATH": ""})
    assert settings.database == str(DEFAULT_DATABASE_PATH)


def test_database_url_names_the_store_and_the_older_database_path_still_counts() -> None:
    url = "postgresql://bot:secret@db:5432/pyramid"
    both = {"DISCORD_TOKEN": "t", "DATABASE_URL": url, "DATABASE_PATH": "/data/x.sqlite3"}
    assert load_settings(both).database == url
    older = {"DISCORD_TOKEN": "t", "DATABASE_PATH": "/data/x.sqlite3"}
    assert load_settings(older).database == "/data/x.sqlite3"


def test_a_database_password_is_never_shown() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://u:pw@h/db"})
    assert "pw" not in repr(settings)
    assert shown_url(settings.database) == "postgresql://u:***@h/db"
    assert shown_url("data/pyramid.sqlite3") == "data/pyramid.sqlite3"


def test_shards_are_all_of_discords_count_unless_a_share_is_given() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t"})
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    settings = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2, 3"})
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    bot = PyramidBot(settings)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert isinstance(bot.offload, ProcessOffload)
    bot.offload.close()


@pytest.mark.parametrize(
    ("count", "ids", "problem"),
    [
        ("0", "", "SHARD_COUNT"),
        ("two", "", "SHARD_COUNT"),
        ("", "0", "needs SHARD_COUNT"),
        ("2", "0,2", "from 0 to 1"),
        ("2", "1,1", "different"),
        ("2", "0;1", "shard numbers"),
    ],
)
def test_a_bad_shard_setting_is_one_sentence(count: str, ids: str, problem: str) -> None:
    with pytest.raises(SettingsError, match=problem):
        load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": count, "SHARD_IDS": ids})


def test_dev_guild_id_is_optional_and_numeric() -> None:
    assert load_settings({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": ""}).dev_guild_id is None
    settings = load_settings({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "123456789012345678"})
    assert settings.dev_guild_id == 123456789012345678
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        load_settings({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "my-server"})


def test_settings_repr_hides_the_token() -> None:
    assert "secret-token" not in repr(load_settings({"DISCORD_TOKEN": "secret-token"}))


def test_endpoint_overrides_are_optional_addresses() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t"})
    assert settings.api_url is None and settings.gateway_url is None
    settings = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "DISCORD_API_URL": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
        }
    )
    assert settings.api_url == "http://127.0.0.1:8080/api/v10"
    assert settings.gateway_url == "ws://127.0.0.1:8080/gateway"
    with pytest.raises(SettingsError, match="DISCORD_API_URL"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_API_URL": "localhost:8080"})


def test_workers_is_optional_and_a_positive_whole_number() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).workers is None
    assert load_settings({"DISCORD_TOKEN": "t", "WORKERS": " "}).workers is None
    assert load_settings({"DISCORD_TOKEN": "t", "WORKERS": "3"}).workers == 3
    for text in ("0", "-1", "two", "1.5", "²"):
        with pytest.raises(SettingsError, match=f"WORKERS must be a positive whole number.*{text}"):
            load_settings({"DISCORD_TOKEN": "t", "WORKERS": text})


def test_pictures_are_drawn_in_threads_unless_picture_workers_are_asked_for() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).picture_workers == 0
    assert load_settings({"DISCORD_TOKEN": "t", "PICTURE_WORKERS": "0"}).picture_workers == 0
    assert load_settings({"DISCORD_TOKEN": "t", "PICTURE_WORKERS": "2"}).picture_workers == 2
    assert load_settings({"DISCORD_TOKEN": "t", "PICTURE_WORKERS": "1"}).picture_workers == 1
    for text in ("-1", "two", "65", "1.5"):
        with pytest.raises(SettingsError) as raised:
            load_settings({"DISCORD_TOKEN": "t", "PICTURE_WORKERS": text})
        assert str(raised.value) == (
            "PICTURE_WORKERS must be a whole number of picture processes from 0 to 64 (0 or"
            f" empty: draw in threads of the bot's process), not {text!r}."
        )


def worker_count(settings: Settings) -> int:
    bot = PyramidBot(settings)
    assert isinstance(bot.offload, ProcessOffload)
    bot.offload.close()  # no worker has started: the pool starts them on the first job
    return bot.offload.workers


def test_the_workers_setting_sizes_the_worker_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert worker_count(load_settings({"DISCORD_TOKEN": "t", "WORKERS": "3"})) == 3


def test_without_workers_the_pool_fits_the_cpus_the_bot_may_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A container pinned to one CPU of a 64-CPU host (docker run --cpuset-cpus 0).
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert worker_count(load_settings({"DISCORD_TOKEN": "t"})) == 1


@pytest.mark.parametrize(
    ("cpu_max", "cpus"),
    [
        (None, 8),  # no cgroup v2 file: the affinity alone
        ("max 100000\n", 8),  # no quota
        ("200000 100000\n", 2),  # docker run --cpus 2
        ("150000 100000\n", 2),  # --cpus 1.5: a part CPU counts as one
        ("50000 100000\n", 1),
        ("1600000 100000\n", 8),  # a quota above the CPUs it may run on
        ("garbled\n", 8),
    ],
)
def test_usable_cpus_are_the_affinity_capped_by_the_cgroup_quota(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cpu_max: str | None, cpus: int
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    path = tmp_path / "cpu.max"
    if cpu_max is not None:
        path.write_text(cpu_max)
    assert usable_cpus(path) == cpus


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("mysql://bot:secret@db/pyramid", "mysql://bot:***@db/pyramid"),
        ("postgresql+psycopg2://bot:secret@db/pyramid", "postgresql+psycopg2://bot:***@db/pyramid"),
    ],
)
def test_a_database_url_of_an_unknown_kind_is_refused_with_one_sentence(
    url: str, shown: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert str(raised.value) == (
        "DATABASE_URL must be a SQLite file's path, sqlite:///path or "
        f"postgresql://user:password@host/database, not {shown!r}."
    )


def test_the_postgresql_and_sqlite_spellings_people_write_are_accepted() -> None:
    for url in (
        "POSTGRESQL://bot:secret@db/pyramid",
        "postgresql+asyncpg://bot:secret@db/pyramid",
        "postgres://bot@db:5432/pyramid",
        "postgresql://bot@db1:5432,[::1]:5433/pyramid",
        "sqlite:///data/pyramid.sqlite3",
        "sqlite:////var/lib/pyramid/pyramid.sqlite3",
        "data/pyramid.sqlite3",
    ):
        assert load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url}).database == url


def test_a_database_port_that_is_not_a_number_is_one_sentence() -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://bot:pw@db:abc/poker"})
    assert str(raised.value) == "DATABASE_URL's port must be a number from 1 to 65535, not 'abc'."


# A bot process each, refused at start: the quick lane starts one (the missing token) and reads
# these sentences from load_settings.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("url", "sentence"),
    [
        (
            "mysql://bot:secret@db/pyramid",
            "DATABASE_URL must be a SQLite file's path, sqlite:///path or "
            "postgresql://user:password@host/database, not 'mysql://bot:***@db/pyramid'.",
        ),
        (
            "postgresql://bot:secret@127.0.0.1:abc/pyramid",
            "DATABASE_URL's port must be a number from 1 to 65535, not 'abc'.",
        ),
    ],
)
def test_a_database_url_the_bot_cannot_use_exits_2_before_making_anything(
    tmp_path: Path, url: str, sentence: str
) -> None:
    env = {
        **os.environ,
        "DISCORD_TOKEN": "t",
        "DATABASE_URL": url,
        # Were the setting taken, the bot would stop at once: nothing listens here.
        "DISCORD_API_URL": "http://127.0.0.1:9/api/v10",
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
    }
    result = subprocess.run(
        [sys.executable, str(BOT_SCRIPT)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    output = result.stderr + result.stdout
    assert result.returncode == 2, output
    assert result.stderr.strip().splitlines() == [sentence], output
    assert "secret" not in output
    assert list(tmp_path.iterdir()) == [], "a folder was made of the URL"


def test_owner_ids_name_the_bots_owners_and_are_user_ids() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t", "OWNER_IDS": "123456789012345678, 42"})
    assert settings.owner_ids == frozenset({123456789012345678, 42})
    bot = PyramidBot(settings)
    assert bot.owner_ids == {123456789012345678, 42}
    assert isinstance(bot.offload, ProcessOffload)
    bot.offload.close()
    assert load_settings({"DISCORD_TOKEN": "t"}).owner_ids == frozenset()
    with pytest.raises(SettingsError) as raised:
        load_settings({"DISCORD_TOKEN": "t", "OWNER_IDS": "ann, 42"})
    assert str(raised.value) == (
        "OWNER_IDS must be Discord user ids separated by commas, or empty, not 'ann, 42'."
    )


@pytest.mark.slow  # a bot process, as above; shown_url's own test is quick
def test_a_password_given_as_a_parameter_is_in_neither_the_log_nor_the_unreachable_sentence(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "DISCORD_TOKEN": "t",
        # Nothing listens on port 9: the database is unreachable at once.
        "DATABASE_URL": "postgresql://bot@127.0.0.1:9/pyramid?password=s3cret",
    }
    result = subprocess.run(
        [sys.executable, str(BOT_SCRIPT)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    output = result.stderr + result.stdout
    assert result.returncode == 1, output
    assert "s3cret" not in output
    assert "database postgresql://bot@127.0.0.1:9/pyramid?password=***" in output
    assert result.stderr.strip().splitlines()[-1] == (
        "Cannot connect to the database postgresql://bot@127.0.0.1:9/pyramid?password=*** "
        "(connection refused); check DATABASE_URL and that the server runs."
    ), output
