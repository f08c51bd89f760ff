"""The training examples run end to end (tiny settings) and print their evaluation table."""

import runpy
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "script, settings",
    [
        ("train_ppo.py", {"total_timesteps": 256, "n_envs": 2, "imitation_decisions": 300, "eval_boards": 2}),
        (
            "train_batched.py",
            {"total_timesteps": 512, "num_deals": 16, "n_steps": 16, "imitation_decisions": 300, "eval_boards": 2},
        ),
        (
            "train_batched.py",
            {"total_timesteps": 256, "num_deals": 16, "n_steps": 16, "imitation_decisions": 0, "eval_boards": 2,
             "partner": "heuristic"},
        ),
    ],
    ids=["train_ppo", "train_batched_self", "train_batched_heuristic"],
)  # fmt: skip
def test_example_trains_and_evaluates(script, settings, capsys):
    module = runpy.run_path(str(EXAMPLES / script), run_name="example")
    module["main"](module["Args"](**settings))
    out = capsys.readouterr().out
    assert "| learner | random | 2 |" in out and "| learner | heuristic | 2 |" in out
