"""Every command the README shows is run here, as written (the bot's own Python for .venv's).

The install-and-run lines are checked in two halves: their install steps name files that exist
(CI runs the test line itself, through .ci/run), and their last step runs. Docker needs an engine
this machine lacks: its commands are checked against the Dockerfile (tests/test_deploy.py reads the
image's other properties). Each command run takes a process of its own, so those tests are marked
slow; the quick loop keeps the checks that read the README against the repository.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot import MISSING_TOKEN_MESSAGE, load_settings

ROOT = Path(__file__).resolve().parent.parent
INSTALL = re.compile(r"^python3 -m venv \.venv && \.venv/bin/pip install -r (\S+) && (.+)$")


def shell_blocks(text: str) -> list[list[str]]:
    """The lines of each ```sh block."""
    return [block.splitlines() for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)]


def commands(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each command (continued lines joined, quotes closed) with the comment lines after it."""
    found: list[tuple[str, list[str]]] = []
    pending = ""
    for line in lines:
        if not pending and line.startswith("#"):
            if found:
                found[-1][1].append(line[1:].strip())
            continue
        pending += line[:-1] + " " if line.endswith("\\") else line + "\n"
        if line.endswith("\\"):
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quoted string goes on to the next line
            continue
        found.append((pending.strip(), []))
        pending = ""
    assert not pending, f"an unfinished command: {pending!r}"
    return found


README = (ROOT / "README.md").read_text("utf-8")
COMMANDS = [command for block in shell_blocks(README) for command in commands(block)]
ENGINE = [(c, notes) for c, notes in COMMANDS if c.startswith(("echo ", ".venv/bin/python -m"))]


def run(
    command: str, *, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    here = command.replace(".venv/bin/python", shlex.quote(sys.executable))
    return subprocess.run(
        ["bash", "-c", here], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


def test_the_readme_shows_commands_and_each_is_tested_below() -> None:
    installs = [c for c, _ in COMMANDS if INSTALL.match(c)]
    dockers = [c for c, _ in COMMANDS if c.startswith("docker ")]
    assert len(installs) == 3 and len(dockers) == 3 and len(ENGINE) >= 8
    assert len(installs) + len(dockers) + len(ENGINE) == len(COMMANDS), COMMANDS


def test_the_test_line_is_what_ci_runs() -> None:
    [test_line] = [c for c, _ in COMMANDS if c.endswith("-m pytest")]
    assert test_line in (ROOT / ".ci" / "run").read_text("utf-8")
    assert INSTALL.match(test_line)[1] == "requirements-dev.txt"  # type: ignore[index]


def test_the_quick_loop_leaves_out_a_registered_marker_and_ci_leaves_out_nothing() -> None:
    # Shown in a sentence, not a block: run here, it would start the whole suite again.
    [marker] = re.findall(r'`\.venv/bin/python -m pytest -m "not (\w+)"`', README)
    options = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]
    registered = [line.split(":")[0] for line in options["ini_options"]["markers"]]
    assert marker in registered
    assert marker not in (ROOT / ".ci" / "run").read_text("utf-8")


@pytest.mark.slow
def test_the_run_line_says_in_one_sentence_that_the_token_is_missing(tmp_path: Path) -> None:
    [run_line] = [c for c, _ in COMMANDS if c.endswith("bot.py")]
    requirements, last = INSTALL.match(run_line).groups()  # type: ignore[union-attr]
    assert (ROOT / requirements).is_file()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    result = run(last.replace("bot.py", str(ROOT / "bot.py")), cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert result.stderr.strip() == MISSING_TOKEN_MESSAGE and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_demo_line_plays_a_game_and_writes_its_pictures(tmp_path: Path) -> None:
    [demo_line] = [c for c, _ in COMMANDS if "--demo" in c]
    requirements, last = INSTALL.match(demo_line).groups()  # type: ignore[union-attr]
    assert (ROOT / requirements).is_file()
    result = run(last.replace("bot.py", str(ROOT / "bot.py")), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pictures = list((tmp_path / "demo-output" / "showdown").glob("*.png"))
    assert any(p.name.startswith("showdown") for p in pictures), pictures


@pytest.mark.slow
@pytest.mark.parametrize(("command", "notes"), ENGINE, ids=[c[:60] for c, _ in ENGINE])
def test_an_engine_command_runs_as_written(command: str, notes: list[str]) -> None:
    result = run(command, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines, "the command printed nothing"
    if "--json" in command or "simulate" not in command:
        for line in lines:
            json.loads(line)
    # A whole JSON object written under the command is one of the lines it prints.
    shown = " ".join(notes)
    if shown.startswith("{") and "..." not in shown:
        documented = json.loads(shown)
        assert documented in [json.loads(line) for line in lines]


def test_the_docker_commands_use_the_images_volume() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text("utf-8")
    build, start = (c for c, _ in COMMANDS if c.startswith(("docker build", "docker run")))
    image = shlex.split(build)[-2]
    assert shlex.split(build)[-1] == "."
    words = shlex.split(start)
    assert words[-1] == image and "--env-file" in words and ".env" in words
    volume = words[words.index("-v") + 1].split(":")[1]
    assert f"VOLUME {volume}" in dockerfile


def test_the_cluster_command_has_its_compose_file_and_settings_the_bot_reads() -> None:
    [up] = [c for c, _ in COMMANDS if c.startswith("docker compose")]
    assert up == "docker compose up -d" and (ROOT / "docker-compose.yml").is_file()
    assert "POSTGRES_PASSWORD" in (ROOT / ".env.example").read_text("utf-8")
    [settings] = re.findall(r"```ini\n(.*?)```", README, re.DOTALL)
    environment = dict(line.split("=", 1) for line in settings.splitlines())
    loaded = load_settings({"DISCORD_TOKEN": "t", **environment})
    assert loaded.database.startswith("postgresql://")
    assert (loaded.shard_count, loaded.shard_ids) == (2, (0,))
