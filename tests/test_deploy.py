"""The Docker image as the README runs it: not root, root-owned code, the database on a volume.

No Docker engine runs here, so these read the Dockerfile, .env.example and .dockerignore the way
Docker would, and hadolint (requirements-dev.txt) lints the Dockerfile.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from dotenv import dotenv_values

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
    path = image_environment().get("DATABASE_PATH", "")
    assert is_on_a_volume(PurePosixPath(path)), f"DATABASE_PATH={path!r}, volumes {volumes()}"


def test_the_volume_folder_belongs_to_the_user_that_runs_the_bot() -> None:
    user = runtime_user()
    for volume in volumes():
        assert any(
            str(volume) in command and (f"chown {user}" in command or f"-o {user}" in command)
            for command in arguments_of("RUN")
        ), f"no RUN gives {volume} to user {user}"


def test_the_env_example_does_not_move_the_database_off_the_volume() -> None:
    # docker run --env-file .env: a value in .env replaces the image's ENV.
    path = dotenv_values(REPO / ".env.example").get("DATABASE_PATH") or ""
    assert not path or is_on_a_volume(PurePosixPath(path)), f"DATABASE_PATH={path!r}"


@pytest.mark.parametrize(
    "path", [".env", ".env.local", ".env.production", "data/pyramid.sqlite3", "x.sqlite3-wal"]
)
def test_dockerignore_keeps_secrets_and_databases_out_of_the_image(path: str) -> None:
    assert is_ignored(path)


def test_dockerignore_keeps_the_code_in_the_image() -> None:
    assert not is_ignored("bot.py") and not is_ignored("storage/migrations/0001-initial.sql")


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
