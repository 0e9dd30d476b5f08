"""``python -m engine check`` and ``score``: JSON in and out, a reason (never a traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from engine.cli import main

LEGAL = "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h Kd | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"
FOUL = "2c | 3c 3d 4h | 9c 9d Kh | 9s 9h 5d | As Ad Ah Kc Kd | Qs Js Ts 9s 8s"


def run(argv: list[str], stdin: str = "") -> tuple[int, list[Any]]:
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def test_check_a_legal_arrangement_lists_each_hand_with_its_points() -> None:
    status, [answer] = run(["check", "--variant", "showdown", LEGAL])
    assert status == 0 and answer["legal"] is True
    assert [hand["slot"] for hand in answer["hands"]] == [f"Hand {n}" for n in range(1, 7)]
    assert [hand["points"] for hand in answer["hands"]] == [1, 1, 1, 1, 2, 5]


def test_check_a_foul_gives_the_reason() -> None:
    status, [answer] = run(["check", "--variant", "showdown", FOUL])
    assert status == 1 and answer["legal"] is False
    assert answer["reason"].startswith("Hand 4 must be stronger than Hand 3")


def test_check_against_held_cards_reports_a_card_not_held() -> None:
    held = "2c 3c 3d 4h 9c 9d Kh 9s 9h As Ad Ah Kc Kd Qs Js Ts 9s 8s 7d"
    status, [answer] = run(["check", "--held", held, LEGAL])
    assert status == 1 and answer["reason"] == "You do not hold a second K♦."


def test_check_reads_arrangements_from_stdin_one_per_line() -> None:
    status, answers = run(["check"], f"{LEGAL}\n\n{FOUL}\n")
    assert status == 1 and [a["legal"] for a in answers] == [True, False]


def test_check_lists_the_automatics_a_seventeen_card_holding_allows() -> None:
    held = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d W Kd Kc 7c"
    arrangement = "4d 3d 2d | 9h 8h 7h 6h 5h | As Ks Qs Js Ts"
    argv = ["check", "--variant", "no_surrender", "--held", held, "--automatic", "dragon"]
    status, [answer] = run([*argv, arrangement])
    assert status == 0 and answer["automatics"] == ["dragon", "three_flushes"]


def test_check_an_unreadable_card_is_a_reason_not_a_traceback() -> None:
    status, [answer] = run(["check", "Zz | 3c 3d 4h"])
    assert status == 1 and answer["legal"] is False and "Zz" in answer["reason"]


CASINO_TABLE = {
    "players": [
        {"name": "One", "hands": ["Ah", "7c 7d 2s", "Qh Th 8h 5h 3h"], "ante": 5},
        {"name": "Two", "hands": [["Qc"], ["3c", "3d", "3s"], ["9h", "8d", "7c", "6s", "5h"]]},
        {"name": "Three", "hands": ["Ad", "9c 9h 4c", "Js Ts 9s 8s 7s"]},
        {"name": "Folder", "folded": True, "ante": 5},
    ],
    "dealer": {"hands": ["Jc", "Qd 8c 3h", "4s 4h 4d 9c 9d"]},
}


def test_score_the_casino_example_from_seed_000() -> None:
    status, [answer] = run(["score", "--variant", "casino"], json.dumps(CASINO_TABLE))
    assert status == 0
    assert answer["names"] == ["One", "Two", "Three", "dealer"]
    assert answer["totals"][:3] == [1, 2, 8]
    assert answer["chips"] == {"One": 10, "Two": 15, "Three": 50, "Folder": -10, "house": -65}


def test_score_a_showdown_table_gives_net_totals_per_hand_and_chips() -> None:
    table = {
        "players": [
            {"name": "Ann", "hands": LEGAL},
            {
                "name": "Bob",
                "hands": "3c | 4c 4d 5h | Tc Td Kh | Ts Th Kd | 2s 2d 2h 2c Kd | 9h 8h 7h 6h 5h",
            },
            {"name": "Cy", "surrendered": 1},
        ],
        "dealer_seat": 2,
    }
    status, [answer] = run(["score", "--variant", "showdown"], json.dumps(table))
    assert status == 0
    assert answer["net"] == [[0, -7], [7, 0]] and answer["totals"] == [-7, 7]
    assert answer["per_hand"] == [
        {"a": "Ann", "b": "Bob", "points": [-1, -1, -1, -1, -8, 5], "automatic": 0, "total": -7}
    ]
    assert sum(answer["chips"].values()) == 0 and answer["chips"]["Cy"] == -20


def test_score_a_declared_automatic() -> None:
    dragon = ["4d 3d 2d", "9h 8h 7h 6h 5h", "As Ks Qs Js Ts"]
    regular = ["Ks Kd 4c", "Qs Qd Qc 3h 3s", "As Ad Ac 3h 3s"]
    table = {
        "players": [
            {"name": "D", "hands": dragon, "automatic": "dragon"},
            {"name": "R", "hands": regular, "automatic": None},
        ]
    }
    status, [answer] = run(["score", "--variant", "standard"], json.dumps(table))
    assert status == 0 and answer["totals"] == [6, -6]


@pytest.mark.parametrize(
    ("stdin", "variant", "fragment"),
    [
        ("{", "showdown", "not JSON"),
        ("[]", "showdown", '{"players"'),
        ('{"players": [1, 2]}', "showdown", "Each player is an object"),
        ('{"players": [{"name": "a", "hands": 5}]}', "showdown", "list of hands"),
        ('{"players": [{"name": "a", "hands": [1]}]}', "showdown", "A hand is a list of cards"),
        ('{"players": [{"name": "a", "hands": ["As"]}]}', "showdown", "a: Set 6 hands"),
        ('{"players": [{"name": "a", "surrendered": "x"}]}', "showdown", "declaration number"),
        ('{"players": [{"hands": ["As", "Ks Kd 2c", "Qs Qd Qh 2d 2h"]}]}', "casino", "dealer"),
        ('{"players": [{"name": "a", "hands": [], "automatic": "x"}]}', "standard", "automatic"),
        ('{"players": [{"name": "a", "ante": -5, "folded": true}]}', "casino", "ante"),
    ],
)
def test_score_bad_input_is_an_error_sentence(stdin: str, variant: str, fragment: str) -> None:
    status, [answer] = run(["score", "--variant", variant], stdin)
    assert status == 1 and fragment in answer["error"]


def test_the_commands_run_as_python_dash_m_engine() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "check",
            "--variant",
            "casino",
            "W | Ks Kd Qs | Ac Ad Ah 2c 2d",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["hands"][0]["name"] == "Ace high (W→A♠)"
