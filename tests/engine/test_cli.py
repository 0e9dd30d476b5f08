"""The engine's command line: JSON lines, a sentence on bad input, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from engine.cli import main


def run(argv: list[str], stdin: str = "") -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def test_evaluate_prints_one_object_per_line_with_the_documented_fields() -> None:
    status, rows = run(["evaluate"], "As Ks Qs Js Ts\n\nW W 2c\n")
    assert status == 0
    assert [set(row) for row in rows] == [
        {"input", "cards", "size", "category", "key", "jokers", "name"}
    ] * 2
    assert rows[0]["category"] == "straight_flush" and rows[0]["size"] == 5
    assert rows[1] == {
        "input": "W W 2c",
        "cards": ["W", "W", "2c"],
        "size": 3,
        "category": "three_of_a_kind",
        "key": [6, 2, 0, 3, 3, 0],
        "jokers": ["2s", "2s"],
        "name": "Three of a kind, twos",
    }


def test_keys_compare_as_plain_lists() -> None:
    _, rows = run(["evaluate", "9s 9h Kd", "9c 9d Kc 3c 2d"])
    assert rows[1]["key"] > rows[0]["key"]  # type: ignore[operator]


def test_a_bad_line_gets_an_error_object_and_exit_status_one() -> None:
    status, rows = run(["evaluate"], "As Ks\nZz 9c\nAs Ks Qs Js\n")
    assert status == 1
    assert "error" not in rows[0]
    assert rows[1]["input"] == "Zz 9c" and "'Zz'" in str(rows[1]["error"])
    assert "not 4" in str(rows[2]["error"])


def test_seven_card_straight_flush_is_straight_flush_of_size_seven() -> None:
    _, rows = run(["evaluate", "Ts 9s 8s 7s 6s 5s 4s"])
    assert rows[0]["category"] == "straight_flush" and rows[0]["size"] == 7


def test_variant_standard_has_no_three_card_flush() -> None:
    _, rows = run(["evaluate", "--variant", "standard", "Ac Kc Qc"])
    assert rows[0]["category"] == "high_card"


def test_compare_says_which_hand_is_stronger() -> None:
    status, rows = run(["compare"], "As | Ah\nAh Kh | Ah Kh\n9c 9d | W 2c 3c 4c 5c\nAs | Ks | Qs\n")
    assert status == 1
    assert [row.get("result") for row in rows[:3]] == [1, 0, -1]
    assert "error" in rows[3]


def test_paigow_ties_ignore_suits() -> None:
    _, rows = run(["compare", "--variant", "paigow", "As Kd | Ah Kc"])
    assert rows[0]["result"] == 0


def test_the_module_runs_as_a_program_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "evaluate", "Qx"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["error"].startswith("I can't read 'Qx'")


#: What only ``simulate`` needs: numpy and the simulator (the Casino Version's simulator too).
_SIMULATOR_MODULES = (
    "numpy",
    "engine.cli_simulate",
    "engine.simulate",
    "engine.simulate_house",
    "engine.solver.casino_sim",
)


def test_solve_imports_neither_numpy_nor_the_simulator() -> None:
    # A fresh interpreter: this process has imported numpy for other tests already.
    script = """if True:
        import io, json, sys
        from engine.cli import main
        out = io.StringIO()
        main(["solve", "--variant", "casino", "--cards", "W Ks Kd Qs Ac Ad Ah 2c 2d"], stdout=out)
        print(json.dumps({"answer": out.getvalue(), "modules": sorted(sys.modules)}))
    """
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    assert found["answer"].startswith("Qs | Ks Kd W | Ah Ad Ac 2d 2c\n")
    assert [name for name in _SIMULATOR_MODULES if name in found["modules"]] == []
