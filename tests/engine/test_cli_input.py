"""Hostile input to ``python -m engine``: a sentence with a short excerpt, never a traceback."""

from __future__ import annotations

import io
import json
import select
import subprocess
import sys
from typing import Any

import pytest

from engine.cli import main

#: An "input" echoed back must be an excerpt, never the whole of a long input; a sentence
#: quotes at most a short piece of it.
SHORT = 200
SENTENCE = 300


def run_process(argv: list[str], stdin: str | bytes = "") -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        input=data,
        capture_output=True,
        check=False,
        timeout=60,
    )


def answers(done: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")[-2000:]
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def assert_short_sentence(answer: dict[str, Any]) -> None:
    text = answer.get("error", answer.get("reason"))
    assert isinstance(text, str) and text.endswith(".") and len(text) < SENTENCE
    assert len(str(answer["input"])) < SHORT


def test_deeply_nested_json_to_score_is_a_sentence() -> None:
    done = run_process(["score"], "[" * 20_000 + "]" * 20_000)
    [answer] = answers(done)
    assert done.returncode == 1
    assert_short_sentence(answer)
    assert "nested" in answer["error"]


def test_an_over_long_line_is_refused_without_reading_it_and_later_lines_still_answered() -> None:
    long_line = "As " * 3_000_000
    done = run_process(["evaluate"], f"{long_line}\nAs Ks\n")
    first, second = answers(done)
    assert done.returncode == 1
    assert_short_sentence(first)
    assert "1,000 characters" in first["error"]  # the limit, in the sentence
    assert f"{len(long_line):,}" in first["input"]  # and the line's own length
    assert second == {**second, "input": "As Ks", "size": 2}


def test_an_over_long_table_for_score_is_refused() -> None:
    table = json.dumps({"players": [{"name": "x" * 5_000_000, "hands": "As"}]})
    done = run_process(["score"], table)
    [answer] = answers(done)
    assert done.returncode == 1
    assert_short_sentence(answer)


@pytest.mark.parametrize(
    # A process each that loads the simulator: the quick lane refuses one count.
    "workers",
    ["-1", *(pytest.param(count, marks=pytest.mark.slow) for count in ("0", "two", "1.5"))],
)
def test_simulate_refuses_a_bad_worker_count_with_a_sentence(workers: str) -> None:
    argv = ["simulate", "--variant", "paigow", "--hands", "10", "--seed", "1"]
    done = run_process([*argv, "--workers", workers])
    assert b"Traceback" not in done.stderr
    assert done.returncode == 2  # a bad argument, as argparse and simulate's other options say
    assert b"--workers" in done.stderr


@pytest.mark.parametrize("budget", ["-1", "nan", "inf", "soon"])
def test_solve_refuses_a_bad_budget_with_a_sentence(budget: str) -> None:
    done = run_process(["solve", "--cards", "As Kd", "--budget-ms", budget])
    assert b"Traceback" not in done.stderr
    assert done.returncode == 2
    assert b"--budget-ms" in done.stderr


def test_bytes_that_are_not_utf8_are_a_sentence() -> None:
    done = run_process(["evaluate"], b"\xff\xfe As\nAs Kd\n")
    first, second = answers(done)
    assert done.returncode == 1
    assert_short_sentence(first)
    assert second["size"] == 2


def test_an_argument_that_is_not_utf8_is_a_sentence() -> None:
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"engine", b"solve", b"--cards", b"As \xff Kd"],
        capture_output=True,
        check=False,
        timeout=60,
    )
    [answer] = answers(done)
    assert done.returncode == 1
    assert_short_sentence(answer)


LONG = "Kd " * 10_000
MALFORMED_LINES = (
    "\x00",
    "Zz" * 5_000,
    "Zz" * 400,
    "As Kd Q" + "x" * 900,
    "| | | | | | | | |",
    "W W W W W W W W W W W W",
    "As," * 300,
    "[[[[[[[[",
    '{"players": []}',
    "As Ks | " * 200,
    LONG,
)
MALFORMED_TABLES = (
    "[" * 5_000,
    "{" * 50 + "}" * 50,
    '{"players": [' * 30,
    '{"players": [], "x": 1' + "1" * 5_000 + "}",
    '{"players": [{"name": "' + "n" * 10_000 + '", "hands": 5}]}',
    '{"players": [{"name": "' + "n" * 10_000 + '", "surrendered": 9}, {"name": "b"}]}',
    '{"players": [{"name": "a", "hands": [], "automatic": "' + "x" * 10_000 + '"}]}',
    '{"players": [{"name": "a", "hands": [' + '"As", ' * 3_000 + '"Ks"]}]}',
    json.dumps({"players": [{"name": "a", "hands": LONG}, {"name": "b", "hands": LONG}]}),
    "\ud800",
    "",
)


def run_inline(argv: list[str], stdin: str = "") -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("command", ["evaluate", "compare", "check"])
@pytest.mark.parametrize("line", MALFORMED_LINES, ids=range(len(MALFORMED_LINES)))
def test_each_line_command_answers_malformed_lines_with_a_short_sentence(
    command: str, line: str
) -> None:
    for argv, stdin in (([command], line + "\n"), ([command, line], "")):
        status, [answer] = run_inline(argv, stdin)
        assert status == 1
        assert_short_sentence(answer)


@pytest.mark.parametrize("table", MALFORMED_TABLES, ids=range(len(MALFORMED_TABLES)))
@pytest.mark.parametrize("variant", ["showdown", "casino"])
def test_score_answers_malformed_tables_with_a_short_sentence(table: str, variant: str) -> None:
    status, [answer] = run_inline(["score", "--variant", variant], table)
    assert status == 1
    assert_short_sentence(answer)


@pytest.mark.parametrize("cards", MALFORMED_LINES, ids=range(len(MALFORMED_LINES)))
def test_solve_answers_malformed_cards_with_a_short_sentence(cards: str) -> None:
    status, [answer] = run_inline(["solve", "--cards", cards, "--json"])
    assert status == 1
    assert_short_sentence(answer)


@pytest.mark.parametrize("held", ["Zz" * 5_000, LONG], ids=["unreadable", "too-long"])
def test_check_answers_malformed_held_cards_with_a_short_sentence(held: str) -> None:
    status, [answer] = run_inline(["check", "--held", held, "As | Kd Kh Ks | W 2c 3c 4c 5c"])
    assert status == 1
    assert_short_sentence(answer)


def test_solve_answers_a_long_game_name_with_a_short_sentence() -> None:
    status, [answer] = run_inline(["solve", "--variant", "x" * 5_000, "--cards", "As"])
    assert status == 1
    assert_short_sentence(answer)


def test_solve_reads_one_holding_per_stdin_line_and_answers_each_in_order() -> None:
    lines = "W Ks Kd Qs Ac Ad Ah 2c 2d\nZz\n\nAs Kd\n9s 9h 9d 8c 7c 6c 5c 4h 2s\n"
    status, answers = run_inline(["solve", "--variant", "casino"], lines)
    assert status == 1  # a line failed; the others are still answered
    assert [a["input"] for a in answers] == [
        "W Ks Kd Qs Ac Ad Ah 2c 2d",
        "Zz",
        "As Kd",
        "9s 9h 9d 8c 7c 6c 5c 4h 2s",
    ]
    assert "error" in answers[1] and "at least 9" in answers[2]["error"]
    for answer in (answers[0], answers[3]):
        assert [len(hand) for hand in answer["hands"]] == [1, 3, 5]
        assert answer["exact"] is True


def test_solve_refuses_an_over_long_stdin_line_and_answers_the_next() -> None:
    status, [first, second] = run_inline(
        ["solve", "--variant", "casino"], LONG + "\n9s 9h 9d 8c 7c 6c 5c 4h 2s\n"
    )
    assert status == 1
    assert_short_sentence(first)
    assert "1,000 characters" in first["error"]
    assert second["input"] == "9s 9h 9d 8c 7c 6c 5c 4h 2s" and "hands" in second


def test_solve_answers_each_line_before_the_next_is_written() -> None:
    # A tool keeps one warm process: it writes a holding, reads its answer, writes the next.
    command = [sys.executable, "-m", "engine", "solve", "--variant", "casino"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for holding in ("W Ks Kd Qs Ac Ad Ah 2c 2d", "9s 9h 9d 8c 7c 6c 5c 4h 2s"):
            process.stdin.write(holding + "\n")
            process.stdin.flush()
            # Waits a minute at most rather than forever if the answer were held in a buffer.
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "no answer while the process waits for the next line"
            answer = json.loads(process.stdout.readline())
            assert answer["input"] == holding and "hands" in answer
        process.stdin.close()
        assert process.wait(timeout=60) == 0
