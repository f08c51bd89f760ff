"""Slow agents in the duplicate evaluation: each side's time per decision, and the boards a CI width needs."""

from __future__ import annotations

import math
import time

from tressette_env.agents import RandomPlayer
from tressette_env.cli import main
from tressette_env.evaluation.duplicate import duplicate


class Sleepy(RandomPlayer):
    name = "sleepy"

    def act(self, view, legal, rng):
        time.sleep(0.003)
        return super().act(view, legal, rng)


def test_the_result_gives_each_sides_time_per_decision():
    result = duplicate(Sleepy(), RandomPlayer(), boards=2, seed=0, workers=1, progress=False)
    a, b = result.seconds_per_decision
    assert a >= 0.003 > b
    again = duplicate(RandomPlayer(), RandomPlayer(), boards=2, seed=0, workers=1, progress=False)
    assert again.seconds_per_decision[0] < 0.003


def test_the_boards_a_ci_width_needs_follow_from_the_spread():
    result = duplicate(RandomPlayer(), RandomPlayer(), boards=30, seed=1, workers=1, progress=False)
    low, high = result.ci95
    need = result.boards_for(high - low)
    assert abs(need - 30) <= 1  # the width it has needs the boards it took
    assert math.isclose(result.boards_for((high - low) / 2), 4 * 30, rel_tol=0.05)  # half the width, 4 times the boards


def test_tressette_eval_prints_them(capsys):
    assert (
        main(["eval", "heuristic", "random", "--deals", "10", "--workers", "1", "--no-progress", "--ci-width", "0.5"])
        == 0
    )
    out = capsys.readouterr().out
    assert "ms a decision for heuristic" in out and "a 95% CI 0.5 points wide needs about" in out


def test_the_json_result_has_the_timing_and_the_repeatable_one_not(tmp_path):
    out = tmp_path / "r.json"
    assert (
        main(["eval", "heuristic", "random", "--deals", "2", "--workers", "1", "--no-progress", "--json", str(out)])
        == 0
    )
    import json

    assert len(json.loads(out.read_text())["seconds_per_decision"]) == 2
    result = duplicate(RandomPlayer(), RandomPlayer(), boards=2, seed=0, workers=1, progress=False)
    assert "seconds_per_decision" not in result.to_json()
