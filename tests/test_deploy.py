"""The Docker image as the README runs it: not root, root-owned code, the database on a volume.

No Docker engine runs here, so these read the Dockerfile, .env.example and .dockerignore the way
Docker would, and hadolint (requirements-dev.txt) lints the Dockerfile.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
from dotenv import dotenv_values

from bot import load_settings

REPO = Path(__file__).resolve().parent.parent
ROOT_USERS = {"root", "0"}


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in (REPO / "Dockerfile").read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, arguments = (pending + stripped).partition(" ")
        found.append((keyword.upper(), arguments.strip()))
        pending = ""
    return found


def arguments_of(keyword: str) -> list[str]:
    return [arguments for found, arguments in instructions() if found == keyword]


def image_environment() -> dict[str, str]:
    """The ENV the image sets (the KEY=VALUE form)."""
    environment: dict[str, str] = {}
    for arguments in arguments_of("ENV"):
        for word in shlex.split(arguments):
            name, _, value = word.partition("=")
            environment[name] = value
    return environment


def volumes() -> list[PurePosixPath]:
    paths: list[PurePosixPath] = []
    for arguments in arguments_of("VOLUME"):
        words = json.loads(arguments) if arguments.startswith("[") else arguments.split()
        paths.extend(PurePosixPath(word) for word in words)
    return paths


def runtime_user() -> str:
    """The user (name or uid, without the group) the container's process runs as."""
    users = arguments_of("USER")
    assert users, "the Dockerfile has no USER: the bot would run as root"
    return users[-1].split(":")[0]


def is_on_a_volume(path: PurePosixPath) -> bool:
    return path.is_absolute() and any(path.is_relative_to(volume) for volume in volumes())


def is_ignored(path: str) -> bool:
    """Whether .dockerignore keeps ``path`` (relative to the build context) out of the image."""
    ignored = False
    for line in (REPO / ".dockerignore").read_text().splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negated = pattern.startswith("!")
        pattern = pattern.removeprefix("!").strip("/")
        # A pattern that matches a folder also excludes everything in it.
        parts = PurePosixPath(path).parts
        prefixes = ["/".join(parts[: end + 1]) for end in range(len(parts))]
        if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes):
            ignored = not negated
    return ignored


def test_the_image_runs_as_a_user_that_is_not_root() -> None:
    assert runtime_user() not in ROOT_USERS


def test_the_code_in_the_image_is_not_owned_by_the_user_that_runs_it() -> None:
    # Root-owned code (COPY without --chown) cannot be rewritten by a compromised bot.
    for keyword, arguments in instructions():
        if keyword in {"COPY", "ADD"}:
            assert "--chown" not in arguments and "--chmod" not in arguments, arguments
    workdirs = arguments_of("WORKDIR")
    for command in arguments_of("RUN"):
        for workdir in workdirs:
            assert not ("chown" in command and workdir in command), command


def test_the_image_keeps_the_database_on_its_volume() -> None:
    path = image_environment().get("DATABASE_URL", "")
    assert is_on_a_volume(PurePosixPath(path)), f"DATABASE_URL={path!r}, volumes {volumes()}"


def test_the_volume_folder_belongs_to_the_user_that_runs_the_bot() -> None:
    user = runtime_user()
    for volume in volumes():
        assert any(
            str(volume) in command and (f"chown {user}" in command or f"-o {user}" in command)
            for command in arguments_of("RUN")
        ), f"no RUN gives {volume} to user {user}"


def test_the_env_example_does_not_move_the_database_off_the_volume() -> None:
    # docker run --env-file .env: a value in .env replaces the image's ENV.
    example = dotenv_values(REPO / ".env.example")
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        path = example.get(name) or ""
        assert not path or is_on_a_volume(PurePosixPath(path)), f"{name}={path!r}"


@pytest.mark.parametrize(
    "path", [".env", ".env.local", ".env.production", "data/pyramid.sqlite3", "x.sqlite3-wal"]
)
def test_dockerignore_keeps_secrets_and_databases_out_of_the_image(path: str) -> None:
    assert is_ignored(path)


def test_dockerignore_keeps_the_code_in_the_image() -> None:
    assert not is_ignored("bot.py")
    assert not is_ignored("storage/migrations/postgresql/0001-chips-games-snapshots.sql")


def hadolint() -> str | None:
    beside = Path(sys.executable).parent / "hadolint"
    return str(beside) if beside.is_file() else shutil.which("hadolint")


def test_hadolint_finds_nothing_to_say_about_the_dockerfile() -> None:
    program = hadolint()
    if program is None:
        # CI installs requirements-dev.txt, so there it must be present.
        if os.environ.get("CI"):
            pytest.fail("hadolint is not installed: pip install -r requirements-dev.txt")
        pytest.skip("hadolint is not installed: pip install -r requirements-dev.txt")
    result = subprocess.run(
        [program, "--no-color", str(REPO / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


#: ``${NAME}``, ``${NAME:?message}``, ``${NAME:-default}``: what Compose fills from .env.
COMPOSE_VARIABLE = re.compile(r"\$\{(\w+)(?::?[-?][^}]*)?\}")


def compose(environment: dict[str, str] | None = None) -> dict[str, Any]:
    """docker-compose.yml as Docker Compose reads it: YAML with its merge keys, ``${...}``
    filled from ``environment`` (.env)."""
    text = (REPO / "docker-compose.yml").read_text()
    if environment is not None:
        text = COMPOSE_VARIABLE.sub(lambda m: environment[m[1]], text)
    loaded = yaml.safe_load(text)
    assert isinstance(loaded, dict)
    return loaded


def bots() -> dict[str, dict[str, Any]]:
    filled = compose({"POSTGRES_PASSWORD": "s3cret"})
    return {name: s for name, s in filled["services"].items() if s.get("build") == "."}


def test_compose_runs_postgresql_with_its_data_on_a_named_volume() -> None:
    services, volumes_declared = compose()["services"], compose()["volumes"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:15")
    [mount] = postgres["volumes"]
    volume, _, target = mount.partition(":")
    assert target == "/var/lib/postgresql/data" and volume in volumes_declared
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    # The password comes from .env, never from the file; Compose refuses to start without it.
    assert postgres["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")


def test_compose_runs_two_bots_that_split_the_shards_on_the_one_postgresql() -> None:
    postgres = compose()["services"]["postgres"]["environment"]
    found = bots()
    assert len(found) >= 2
    counts = {bot["environment"]["SHARD_COUNT"] for bot in found.values()}
    assert len(counts) == 1, "every process must agree on the number of shards"
    count = int(counts.pop())
    shards = [int(i) for bot in found.values() for i in bot["environment"]["SHARD_IDS"].split(",")]
    assert sorted(shards) == list(range(count)), "each shard run by exactly one process"
    for name, bot in found.items():
        url = urllib.parse.urlsplit(bot["environment"]["DATABASE_URL"])
        assert url.scheme == "postgresql" and url.hostname == "postgres", name
        assert (url.username, url.password) == (postgres["POSTGRES_USER"], "s3cret"), name
        assert url.path == "/" + postgres["POSTGRES_DB"], name
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert bot["env_file"] == ".env" and bot["restart"] == "unless-stopped", name


def test_compose_bots_use_the_settings_the_bot_reads() -> None:
    for bot in bots().values():
        settings = load_settings(
            {"DISCORD_TOKEN": "t", **{k: str(v) for k, v in bot["environment"].items()}}
        )
        assert settings.database.startswith("postgresql://")
        assert settings.shard_count is not None and settings.shard_ids is not None
