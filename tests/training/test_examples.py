"""The training examples run end to end (tiny settings), print their evaluation table and save what they say."""

import re
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
def test_example_trains_and_evaluates(script, settings, tmp_path, capsys):
    from tressette_env.learned import load_player

    module = runpy.run_path(str(EXAMPLES / script), run_name="example")
    module["main"](module["Args"](**settings, run_dir=str(tmp_path / "runs")))
    out = capsys.readouterr().out
    assert "| learner | random | 2 |" in out and "| learner | heuristic | 2 |" in out
    # The printed path is a real folder holding what the line says.
    written = re.search(r"run written to (\S+): model.zip, policy.npz, final.md", out)
    assert written, out
    run = Path(written.group(1))
    assert run.parent == tmp_path / "runs" and run.name.startswith("Tressette-")
    assert sorted(p.name for p in run.iterdir()) == ["final.md", "model.zip", "policy.npz"]
    assert "| learner | random | 2 |" in (run / "final.md").read_text()
    for name in ("model.zip", "policy.npz"):
        assert load_player(run / name).policy.layers[0][0].shape == (256, 790)
